import type { QueryClient } from '@tanstack/react-query';
import { requestTimeHeaders } from '@hpc/api-client';
import { sessionQueryOptions } from '../features/account/use-session';
import { hasSessionHint } from '../features/account/portal-headers';
import { identity } from '../shared/api/client';
import { preloadPageAt } from './routes';

/**
 * What the page at this address will need, started before React mounts (main.tsx): the session, on E-File the
 * folder it shows, and the page's code. Rendering first and fetching from the components made these wait for each
 * other in turn (code → user info → cluster list → service → listing); started here they overlap. The order is the
 * order of need: the browser opens only six connections to the server, and the page's code is some twenty files.
 */
export function startEarly(
  qc: QueryClient,
  at: Pick<Location, 'pathname' | 'search'> = window.location,
): void {
  // Without the CSRF cookie there is no session to ask about (as in the session query itself).
  if (!hasSessionHint()) {
    preloadPageAt(at.pathname);
    return;
  }
  void qc.prefetchQuery(sessionQueryOptions());
  if (at.pathname === '/efile') {
    // The cluster list is keyed by the user id, unknown until user info answers: asked for now, filed then.
    const clusters = identity.clusters.baseInfo();
    clusters.catch(() => undefined);
    const search = new URLSearchParams(at.search);
    void import('../features/efile/prefetch-folder')
      .then((m) => m.prefetchFolder(qc, search, clusters))
      .catch(() => undefined);
  }
  // Portal calls leave once their request-time header is sealed (Web Crypto, asynchronous); the page's code waits
  // for that too, so those calls are not queued behind its twenty files for the browser's few connections.
  void requestTimeHeaders()
    .catch(() => undefined)
    .then(() => preloadPageAt(at.pathname));
}
