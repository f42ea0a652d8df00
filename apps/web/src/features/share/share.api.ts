import { ApiClient, isApiError } from '@hpc/api-client';
import type { FileEntry } from '@hpc/contracts';
import { languageHeaders } from '../../shared/api/request-options';

export interface PublicList {
  path: string;
  list: FileEntry[];
  total: number;
}

/**
 * The anonymous calls of a share link, to an efile instance of the cluster found by the recipient's own service
 * discovery (`usePublicEfile`); the default is the all-in-one mount point `/efile/<clusterId>`.
 */
export function shareApi(clusterId: string, baseUrl = `/efile/${encodeURIComponent(clusterId)}`) {
  const client = new ApiClient({ baseUrl, headers: languageHeaders });
  return {
    info: (shareId: string) =>
      client.get<{ shareId: string; sharer: string; isDir: boolean; endUseTime: number }>(
        '/share/public/info.action',
        {
          shareId,
        },
      ),
    verify: (shareId: string, password: string) =>
      client.post<{ shareToken: string; expiresAt: number; name: string; isDir: boolean }>(
        '/share/public/verify.action',
        {
          form: { shareId, password },
        },
      ),
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
export type ShareApi = ReturnType<typeof shareApi>;

/**
 * The recipient's message key for a failed call: wrong code, expired, closed and throttled each have their own
 * (translated even though some come with 403/410/429, which the shared mapping would show as the server's text).
 */
export function shareErrorKey(e: unknown): string {
  if (!isApiError(e)) return 'errors.unknown';
  if (e.kind === 'network') return 'errors.network';
  if (e.kind === 'timeout') return 'errors.timeout';
  if (e.code === '1406') return 'share.tokenExpired';
  if (['1026', '1509', 'LINK_CLOSED', '429', '1020', '1024'].includes(e.code)) return `errors.${e.code}`;
  if (e.status === 429) return 'errors.429';
  if (e.kind === 'http' && e.status === 404) return 'share.notFound';
  return `errors.${e.code}`;
}
