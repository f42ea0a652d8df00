import type { ListResponse, PublicShareInfoResponse, ShareVerifyResponse } from '@hpc/contracts';
import type { ApiClient } from './client';
import type { DataOf } from './envelope';

export type PublicShareInfo = DataOf<typeof PublicShareInfoResponse>;
export type ShareVerified = DataOf<typeof ShareVerifyResponse>;
/** A page of a shared folder; `path` is relative to the shared item. */
export type PublicList = DataOf<typeof ListResponse>;

/**
 * The anonymous calls of a share link (contracts/efile.ts "shares"), to one efile instance of the share's cluster:
 * `client`'s base URL is that instance (the all-in-one mount point is `/efile/<clusterId>`).
 */
export function shareApi(client: ApiClient) {
  return {
    info: (shareId: string) => client.get<PublicShareInfo>('/share/public/info.action', { shareId }),
    verify: (shareId: string, password: string) =>
      client.post<ShareVerified>('/share/public/verify.action', { form: { shareId, password } }),
    list: (
      q: { shareToken: string; path: string; pageNum: number; pageSize: number },
      signal?: AbortSignal,
    ) => client.get<PublicList>('/share/public/list.action', q, { signal }),
    downloadUrl: (shareToken: string, path: string) =>
      client.url('/share/public/download.action', { shareToken, path }),
    zipUrl: (shareToken: string, paths: string[]) =>
      client.url('/share/public/download.action', { shareToken, paths }),
  };
}
export type ShareCalls = ReturnType<typeof shareApi>;
