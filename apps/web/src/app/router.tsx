import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './layout/app-layout';
import { appRoutes } from './routes';

/** Turns the route table into React Router routes under the shared layout; `handle.section` feeds the layout. */
export function createAppRouter() {
  const children: RouteObject[] = appRoutes.map((r) => {
    const Page = r.page;
    return {
      path: r.path,
      handle: { section: r.section },
      element: r.redirect ? <Navigate to={r.redirect} replace /> : Page ? <Page /> : null,
    };
  });
  return createBrowserRouter([{ element: <AppLayout />, children }]);
}
