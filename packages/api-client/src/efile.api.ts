import {
  Limits,
  type BrowserAction,
  type BrowserTicketResponse,
  type DeletePartialResponse,
  type DownloadCheckResponse,
  type ExistResponse,
  type HomeUsage,
  type InitInfoResponse,
  type LinuxCommandResponse,
  type ListQuery,
  type ListResponse,
  type MergeResponse,
  type OkResponse,
  type OperationProgressResponse,
  type OperationStartResponse,
  type PathResponse,
  type PreviewCheckResponse,
  type PreviewTextResponse,
  type RemoveResponse,
  type ShareListResponse,
  type ShareOpenResponse,
  ShareRoutes,
  type RouteQuery,
  type TreeResponse,
} from '@hpc/contracts';
import type { ApiClient } from './client';
import { toSearchParams } from './client';
import type { DataOf } from './envelope';

/** A page of a folder listing (`GET /list.action`). */
export type ListPage = DataOf<typeof ListResponse>;
/** What one cluster's efile tells the client about itself and the user (`GET /initInfo.action`). */
export type InitInfo = DataOf<typeof InitInfoResponse>;
export type ShareInfo = DataOf<typeof ShareOpenResponse>;
export type ShareListPage = DataOf<typeof ShareListResponse>;
export type OperationProgress = DataOf<typeof OperationProgressResponse>;
export type LinuxCommands = DataOf<typeof LinuxCommandResponse>;
export type TreeChildren = DataOf<typeof TreeResponse>;
export type SortKey = 'name' | 'size' | 'mtime' | 'type' | 'owner' | 'permission';
/** The listing's query as clients send it: every paging and sorting field set. */
export type ListParams = Pick<ListQuery, 'path' | 'keyword'> & {
  pageNum: number;
  pageSize: number;
  sort: SortKey;
  order: 'asc' | 'desc';
};

/**
 * The calls of one cluster's efile (contracts/efile.ts, spec §7 "File service"). `client` carries that cluster's
 * token in the `token` header (and whatever else the caller's environment needs), so the same calls serve the web,
 * e2e tests, benches and the fast-transfer client. Browser downloads and image previews are URLs the browser opens
 * itself, so they cannot carry the header: they carry a one-minute ticket for that one URL
 * (`POST /browserTicket.action`), never the 12-hour cluster token.
 */
export function efileApi(client: ApiClient, clusterId: string) {
  const post = <T>(path: string, form: Record<string, unknown>, timeoutMs?: number) =>
    client.post<T>(path, { form: form as never, timeoutMs });
  /** Asks for a ticket bound to exactly these parameters, right before the browser opens the URL. */
  const ticketUrl = async (
    action: BrowserAction,
    route: string,
    q: { path?: string; paths?: string[]; downKey?: string; name?: string },
  ): Promise<string> => {
    const { ticket } = await post<DataOf<typeof BrowserTicketResponse>>('/browserTicket.action', {
      action,
      ...q,
    });
    return client.url(route, { ...q, ticket });
  };

  return {
    clusterId,
    list: (q: ListParams, signal?: AbortSignal) =>
      client.get<ListPage>('/list.action', q, { signal, timeoutMs: Limits.timeouts.list }),
    initInfo: (signal?: AbortSignal) => client.get<InitInfo>('/initInfo.action', undefined, { signal }),
    /** The home's used space and recent files, from the cache a background count fills (issue 22 §4). */
    usage: (signal?: AbortSignal) => client.get<HomeUsage>('/usage.action', undefined, { signal }),
    mkdir: (path: string) => post<DataOf<typeof PathResponse>>('/mkdir.action', { path }),
    touch: (path: string) => post<DataOf<typeof PathResponse>>('/touchFile.action', { path }),
    remove: (paths: string[]) =>
      client.post<DataOf<typeof RemoveResponse>>('/remove.action', {
        query: { recursive: true },
        form: { paths },
        timeoutMs: Limits.timeouts.remove,
      }),
    rename: (path: string, newName: string) =>
      post<DataOf<typeof PathResponse>>('/rename.action', { path, newName }),
    exist: (path: string) => post<DataOf<typeof ExistResponse>>('/exist.action', { path }),
    tree: (path?: string) => client.get<TreeChildren>('/treeChildrenList.action', { path }),
    previewCheck: (path: string) =>
      client.post<DataOf<typeof PreviewCheckResponse>>('/previewTextFileCheck.action', { query: { path } }),
    previewText: (path: string) =>
      post<DataOf<typeof PreviewTextResponse>>('/previewTextFile.action', { path }),
    editText: (path: string, content: string, expectedMtime?: number) =>
      client.post<DataOf<typeof PathResponse>>('/editTextFile.action', {
        json: { path, content, expectedMtime },
      }),
    downloadCheck: (paths: string[]) =>
      post<DataOf<typeof DownloadCheckResponse>>('/downloadCheck.action', {
        paths,
        urlLimit: Limits.downloadPathLimit,
      }),
    /** `cover` is false unless the user confirmed the overwrite prompt after a same-name refusal. */
    copyMove: (kind: 'copy' | 'move', paths: string[], targetPath: string, cover = false) =>
      client.post<DataOf<typeof OperationStartResponse>>(`/${kind}.action`, {
        form: { paths, targetPath, cover, clusterId },
        timeoutMs: Limits.timeouts.copyMove,
      }),
    operationProgress: (operationId: string) =>
      client.get<OperationProgress>('/operationProgress.action', { operationId }),
    operationCancel: (operationId: string) =>
      post<DataOf<typeof OkResponse>>('/operationCancel.action', { operationId, clusterId }),
    deletePartial: (paths: string[]) =>
      post<DataOf<typeof DeletePartialResponse>>('/upload/deletePartial.action', { paths, clusterId }),
    merge: (q: { path: string; relativePath: string; identifier: string; overwrite: boolean }) =>
      post<DataOf<typeof MergeResponse>>('/merge.action', q),
    shareOpen: (query: RouteQuery<typeof ShareRoutes.open>) =>
      client.request(ShareRoutes.open, { query }, { timeoutMs: Limits.timeouts.share }),
    shareClose: (query: RouteQuery<typeof ShareRoutes.close>) =>
      client.request(ShareRoutes.close, { query }, { timeoutMs: Limits.timeouts.share }),
    shareList: (pageNum: number, pageSize: number, signal?: AbortSignal) =>
      client.request(ShareRoutes.list, { query: { pageNum, pageSize } }, { signal }),
    isIncludeShareFile: (paths: string[]) => client.request(ShareRoutes.includes, { query: { paths } }),
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
export type EfileCalls = ReturnType<typeof efileApi>;

/** Length of the encoded `paths=…&paths=…` a zip download would put on the address (spec §5, 2000 limit). */
export const encodedPathsLength = (paths: readonly string[]): number =>
  toSearchParams({ paths }).toString().length;
