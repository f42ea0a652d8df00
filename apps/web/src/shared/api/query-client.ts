import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '@hpc/api-client';
import { notifyError } from './notify';

/** Set `meta: { silent: true }` on a query or mutation whose failure the page handles itself. */
declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // One place turns failed calls into the messages of spec §8.
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silent) notifyError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _v, _c, mutation) => {
        if (!mutation.meta?.silent) notifyError(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // Only a lost connection is worth one more try; a server's "no" will not change on retry.
        retry: (count, error) => count < 1 && isApiError(error) && error.kind === 'network',
      },
    },
  });
}
