import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './layout/app-layout';
import { RouteError } from './layout/route-error';
import { appRoutes } from './routes';

/**
 * Turns the route table into React Router routes under the shared layout; `handle.section` feeds the layout. A
 * page that fails (its part did not load, or it threw) shows {@link RouteError} inside the layout; should the
 * layout itself fail, the same message stands alone.
 */
export function createAppRouter() {
  const children: RouteObject[] = appRoutes.map((r) => {
    const Page = r.page;
    return {
      path: r.path,
      handle: { section: r.section },
      element: r.redirect ? <Navigate to={r.redirect} replace /> : Page ? <Page /> : null,
    };
  });
  return createBrowserRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      children: [{ errorElement: <RouteError />, children }],
    },
  ]);
}
