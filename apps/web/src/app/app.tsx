import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Providers } from './providers';
import type { createAppRouter } from './router';

/** The app: `router` and `queryClient` are made in main.tsx, where the first page's code and data start loading. */
export function App({
  queryClient,
  router,
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createAppRouter>;
}) {
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
