import { ShareRoutes } from '@hpc/contracts';
import type { ApiClient } from './client';
import type { RouteData } from '@hpc/contracts';

export type PublicShareInfo = RouteData<typeof ShareRoutes.publicInfo>;
export type ShareVerified = RouteData<typeof ShareRoutes.publicVerify>;
/** A page of a shared folder; `path` is relative to the shared item. */
export type PublicList = RouteData<typeof ShareRoutes.publicList>;

/**
 * The anonymous calls of a share link (contracts' `ShareRoutes`), to one efile instance of the share's cluster:
 * `client`'s base URL is that instance (the all-in-one mount point is `/efile/<clusterId>`).
 */
export function shareApi(client: ApiClient) {
  return {
    info: (shareId: string) => client.request(ShareRoutes.publicInfo, { query: { shareId } }),
    verify: (shareId: string, password: string) =>
      client.request(ShareRoutes.publicVerify, { body: { shareId, password } }),
    list: (
      query: { shareToken: string; path: string; pageNum: number; pageSize: number },
      signal?: AbortSignal,
    ) => client.request(ShareRoutes.publicList, { query }, { signal }),
    downloadUrl: (shareToken: string, path: string) =>
      client.url(ShareRoutes.publicDownload, { query: { shareToken, path } }),
    zipUrl: (shareToken: string, paths: string[]) =>
      client.url(ShareRoutes.publicDownload, { query: { shareToken, paths } }),
  };
}
export type ShareCalls = ReturnType<typeof shareApi>;
