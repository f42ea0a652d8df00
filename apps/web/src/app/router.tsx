import { Spin } from 'antd';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { requestTimeHeaders } from '@hpc/api-client';
import { hasSessionHint } from '../features/account/portal-headers';
import { sessionQueryOptions } from '../features/account/use-session';
import { AppLayout } from './layout/app-layout';
import { RouteError } from './layout/route-error';
import { loadPart } from './part-loading';
import { appRoutes, type AppRoute } from './routes';

/** What the screen shows while the first page's code loads (the router renders nothing of the app before it). */
function FirstLoad() {
  return (
    <div className="hpc-page-loading">
      <Spin />
    </div>
  );
}

/**
 * Reloads the tab at the address being navigated to (the router loads a page's code before the address changes),
 * or at the current one on the first load.
 */
function reloadAt(router: {
  state: { navigation: { location?: { pathname: string; search: string; hash: string } } };
}) {
  return () => {
    const to = router.state.navigation.location;
    if (to) window.location.assign(`${to.pathname}${to.search}${to.hash}`);
    else window.location.reload();
  };
}

function toRouteObject(
  r: AppRoute,
  qc: QueryClient,
  reload: () => void,
  callsFirst: Promise<unknown>,
): RouteObject {
  const { page, load } = r;
  return {
    path: r.path,
    handle: { section: r.section },
    ...(r.redirect ? { element: <Navigate to={r.redirect} replace /> } : {}),
    // The page's code at navigation, with the part timeout; a failure becomes a PartLoadError for RouteError (a
    // part gone after a redeploy reloads the tab once instead).
    ...(page
      ? {
          lazy: async () => {
            await callsFirst;
            return { Component: (await loadPart(page, undefined, reload)).default };
          },
        }
      : {}),
    // Data at navigation, in parallel with the code. Started, not awaited: see AppRoute.load.
    ...(load
      ? {
          loader: ({ request, params }) => {
            void load({ qc, url: new URL(request.url), params, signedIn: hasSessionHint() }).catch(
              () => undefined,
            );
            return null;
          },
        }
      : {}),
  };
}

/**
 * Turns the route table into React Router routes under the shared layout; `handle.section` feeds the layout. Made
 * as the page starts (main.tsx), so the first address's code and data load while the language texts do. The layout
 * route starts the session for every page. A page that fails (its part did not load, or it threw) shows
 * {@link RouteError} inside the layout; should the layout itself fail, the same message stands alone.
 */
export function createAppRouter(qc: QueryClient) {
  // Set once the router exists; the pages' loads ask it where the navigation goes.
  let reload = () => window.location.reload();
  // Portal calls leave once their request-time header is sealed (Web Crypto, asynchronous). The page's code waits
  // for that too, so the first page's data calls are not queued behind its twenty-odd files for the browser's six
  // connections; a visitor without a session has no such calls.
  const callsFirst = hasSessionHint() ? requestTimeHeaders().catch(() => undefined) : Promise.resolve();
  const router = createBrowserRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      HydrateFallback: FirstLoad,
      loader: () => {
        void qc.prefetchQuery(sessionQueryOptions());
        return null;
      },
      children: [
        {
          errorElement: <RouteError />,
          children: appRoutes.map((r) => toRouteObject(r, qc, () => reload(), callsFirst)),
        },
      ],
    },
  ]);
  reload = reloadAt(router);
  return router;
}
