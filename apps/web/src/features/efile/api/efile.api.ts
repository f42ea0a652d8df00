import { ApiClient, toSearchParams } from '@hpc/api-client';
import { Limits, type FileEntry } from '@hpc/contracts';
import { getClusterToken } from '../../clusters';
import { languageHeaders, NO_CACHE_HEADERS, RequestTimeouts } from '../../../shared/api/request-options';

export interface ListPage {
  path: string;
  list: FileEntry[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export interface InitInfo {
  clusterId: string;
  homePath: string;
  username: string;
  sharePath: string;
  roots: string[];
  shareMaxValidDays: number;
  chunkSize: number;
  maxChunkSize: number;
  simultaneousUploads: number;
  folderFileLimit: number;
  previewMaxBytes: number;
  downloadPathLimit: number;
  nameMaxLength: number;
  partialSuffix: string;
}

export interface ShareInfo {
  shareId: string;
  path: string;
  name: string;
  isDir: boolean;
  link: string;
  password: string;
  validDays: number;
  shareTime: number;
  endUseTime: number;
  status: string;
}

export interface OperationProgress {
  operationId: string;
  kind: string;
  status: string;
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  filesTotal: number;
  errorCode: string | null;
}

export interface LinuxCommands {
  token: string;
  expiresAt: number;
  url: string;
  commands: { kind: string; command: string }[];
}

export type SortKey = 'name' | 'size' | 'mtime' | 'type' | 'owner' | 'permission';

/**
 * The calls of one cluster's efile (contracts/efile.ts), with that cluster's token in the `token` header. Browser
 * downloads and image previews are URLs the browser opens itself, so they cannot carry the header: they carry a
 * one-minute ticket for that one URL (`POST /browserTicket.action`), never the 12-hour cluster token.
 */
export function createEfileApi(clusterId: string, baseUrl: string) {
  const token = async () => (await getClusterToken(clusterId)) ?? '';
  // spec §9's second client: 3000 s unless a call says otherwise, answers never taken from a cache.
  const client = new ApiClient({
    baseUrl,
    timeoutMs: RequestTimeouts.second,
    headers: async () => ({ ...languageHeaders(), ...NO_CACHE_HEADERS, token: await token() }),
  });
  const post = <T>(path: string, form: Record<string, unknown>, timeoutMs?: number) =>
    client.post<T>(path, { form: form as never, timeoutMs });
  /** Asks for a ticket bound to exactly these parameters, right before the browser opens the URL. */
  const ticketUrl = async (
    action: 'download' | 'multiDownload' | 'previewRaw',
    route: string,
    q: { path?: string; paths?: string[]; downKey?: string; name?: string },
  ): Promise<string> => {
    const { ticket } = await post<{ ticket: string; expiresAt: number }>('/browserTicket.action', {
      action,
      ...q,
    });
    return client.url(route, { ...q, ticket });
  };

  return {
    clusterId,
    baseUrl,
    token,
    list: (
      q: {
        path: string;
        pageNum: number;
        pageSize: number;
        sort: SortKey;
        order: 'asc' | 'desc';
        keyword?: string;
      },
      signal?: AbortSignal,
    ) => client.get<ListPage>('/list.action', q, { signal, timeoutMs: Limits.timeouts.list }),
    initInfo: (signal?: AbortSignal) => client.get<InitInfo>('/initInfo.action', undefined, { signal }),
    mkdir: (path: string) => post<{ path: string }>('/mkdir.action', { path }),
    touch: (path: string) => post<{ path: string }>('/touchFile.action', { path }),
    remove: (paths: string[]) =>
      client.post<{ removed: number }>('/remove.action', {
        query: { recursive: true },
        form: { paths },
        timeoutMs: Limits.timeouts.remove,
      }),
    rename: (path: string, newName: string) => post<{ path: string }>('/rename.action', { path, newName }),
    exist: (path: string) => post<{ exist: boolean; isDirectory: boolean }>('/exist.action', { path }),
    tree: (path?: string) =>
      client.get<{ list: { name: string; path: string; isLeaf: boolean }[]; truncated: boolean }>(
        '/treeChildrenList.action',
        { path },
      ),
    previewCheck: (path: string) =>
      client.post<{ path: string; size: number; mtime: number; encoding: string }>(
        '/previewTextFileCheck.action',
        {
          query: { path },
        },
      ),
    previewText: (path: string) =>
      post<{ path: string; content: string; size: number; mtime: number }>('/previewTextFile.action', {
        path,
      }),
    editText: (path: string, content: string, expectedMtime?: number) =>
      client.post<{ path: string }>('/editTextFile.action', { json: { path, content, expectedMtime } }),
    downloadCheck: (paths: string[]) =>
      post<{ downKey: string | null; fileCount: number; totalSize: number }>('/downloadCheck.action', {
        paths,
        urlLimit: Limits.downloadPathLimit,
      }),
    /** `cover` is false unless the user confirmed the overwrite prompt after a same-name refusal. */
    copyMove: (kind: 'copy' | 'move', paths: string[], targetPath: string, cover = false) =>
      client.post<{ operationId: string; clusterId: string }>(`/${kind}.action`, {
        form: { paths, targetPath, cover, clusterId },
        timeoutMs: Limits.timeouts.copyMove,
      }),
    operationProgress: (operationId: string) =>
      client.get<OperationProgress>('/operationProgress.action', { operationId }),
    operationCancel: (operationId: string) =>
      post<null>('/operationCancel.action', { operationId, clusterId }),
    deletePartial: (paths: string[]) =>
      post<{ deleted: number }>('/upload/deletePartial.action', { paths, clusterId }),
    merge: (q: { path: string; relativePath: string; identifier: string; overwrite: boolean }) =>
      post<{ path: string; size: number }>('/merge.action', q),
    shareOpen: (q: { path: string; validDays: string; password?: string }) =>
      client.get<ShareInfo>('/share/open.action', q, { timeoutMs: Limits.timeouts.share }),
    shareClose: (q: { shareId?: string; path?: string }) =>
      client.get<{ closed: number }>('/share/close.action', q, { timeoutMs: Limits.timeouts.share }),
    shareList: (pageNum: number, pageSize: number, signal?: AbortSignal) =>
      client.get<{ list: ShareInfo[]; total: number }>(
        '/share/list.action',
        { pageNum, pageSize },
        { signal },
      ),
    isIncludeShareFile: (paths: string[]) =>
      client.get<{ include: boolean; shared: boolean; count: number }>('/share/isIncludeShareFile.action', {
        paths,
      }),
    linuxUpload: (path: string) => client.get<LinuxCommands>('/linuxUpload.action', { path }),
    linuxDownload: (paths: string[]) => post<LinuxCommands>('/fastrans/linuxDownload.action', { paths }),

    /** URL of one file or folder (zip) for the browser to download. */
    downloadUrl: (path: string): Promise<string> => ticketUrl('download', '/download.action', { path }),
    /** URL of a zip of several items: paths on the address, or a download key when they are too long. */
    multiDownloadUrl: (q: { paths?: string[]; downKey?: string; name?: string }): Promise<string> =>
      ticketUrl('multiDownload', '/multiDownload.action', q),
    /** Image preview URL: served with a sandbox CSP, so an SVG cannot run script in the portal's origin. */
    rawPreviewUrl: (path: string): Promise<string> =>
      ticketUrl('previewRaw', '/preview/raw.action', { path }),
  };
}
export type EfileApi = ReturnType<typeof createEfileApi>;

/** Length of the encoded `paths=…&paths=…` a zip download would put on the address (spec §5, 2000 limit). */
export const encodedPathsLength = (paths: readonly string[]): number =>
  toSearchParams({ paths }).toString().length;
