import {
  DownloadRoutes,
  FileRoutes,
  Limits,
  LINUX_TOKEN_HEADER,
  LinuxRoutes,
  OperationRoutes,
  PreviewRoutes,
  ShareRoutes,
  TicketRoutes,
  UploadRoutes,
  UsageRoutes,
  type BrowserAction,
  type ListQuery,
  type RouteBody,
  type RouteData,
  type RouteQuery,
  type RouteAnswer,
} from '@hpc/contracts';
import type { ApiClient } from './client';
import type { Bytes } from './route-request';
import { toSearchParams } from './client';

/** A page of a folder listing (`GET /list.action`). */
export type ListPage = RouteData<typeof FileRoutes.list>;
/** What one cluster's efile tells the client about itself and the user (`GET /initInfo.action`). */
export type InitInfo = RouteData<typeof FileRoutes.initInfo>;
export type ShareInfo = RouteData<typeof ShareRoutes.open>;
export type ShareListPage = RouteData<typeof ShareRoutes.list>;
export type OperationProgress = RouteData<typeof OperationRoutes.progress>;
export type LinuxCommands = RouteData<typeof LinuxRoutes.uploadCommands>;
export type TreeChildren = RouteData<typeof FileRoutes.tree>;
export type SortKey = 'name' | 'size' | 'mtime' | 'type' | 'owner' | 'permission';
/** The listing's query as clients send it: every paging and sorting field set. */
export type ListParams = Pick<ListQuery, 'path' | 'keyword'> & {
  pageNum: number;
  pageSize: number;
  sort: SortKey;
  order: 'asc' | 'desc';
};
/** The GETs a browser opens itself, with a ticket. */
type BrowserGet = typeof DownloadRoutes.download | typeof DownloadRoutes.multi | typeof PreviewRoutes.raw;

/**
 * The calls of one cluster's efile (contracts' `efile.routes.ts`, spec §7 "File service"). `client` carries that
 * cluster's token in the `token` header (and whatever else the caller's environment needs), so the same calls serve
 * the web, e2e tests, benches and the fast-transfer client. Browser downloads and image previews are URLs the
 * browser opens itself, so they cannot carry the header: they carry a one-minute ticket for that one URL
 * (`POST /browserTicket.action`), never the 12-hour cluster token.
 */
export function efileApi(client: ApiClient, clusterId: string) {
  /**
   * Asks for a ticket bound to exactly these parameters (the ticket's body is checked against
   * `BrowserTicketBody`, which names the same fields), right before the browser opens the URL.
   */
  const ticketUrl = async (
    action: BrowserAction,
    route: BrowserGet,
    query: Omit<RouteBody<typeof TicketRoutes.browserTicket>, 'action'>,
  ): Promise<string> => {
    const { ticket } = await client.request(TicketRoutes.browserTicket, { body: { action, ...query } });
    return client.url(route.path, { ...query, ticket });
  };

  return {
    clusterId,
    /** The health check (no token): whether this instance answers `check_result: 'ok'` within `timeoutMs`. */
    healthy: async (timeoutMs = 5000): Promise<boolean> => {
      try {
        const res = await client.send(FileRoutes.check, {}, { timeoutMs });
        return ((await res.json()) as RouteAnswer<typeof FileRoutes.check>).check_result === 'ok';
      } catch {
        return false;
      }
    },
    list: (query: ListParams, signal?: AbortSignal) =>
      client.request(FileRoutes.list, { query }, { signal, timeoutMs: Limits.timeouts.list }),
    initInfo: (signal?: AbortSignal) => client.request(FileRoutes.initInfo, {}, { signal }),
    /** The home's used space and recent files, from the cache a background count fills (issue 22 §4). */
    usage: (signal?: AbortSignal) => client.request(UsageRoutes.usage, {}, { signal }),
    mkdir: (path: string) => client.request(FileRoutes.mkdir, { body: { path } }),
    touch: (path: string) => client.request(FileRoutes.touch, { body: { path } }),
    remove: (paths: string[]) =>
      client.request(
        FileRoutes.remove,
        { body: { paths, recursive: true } },
        { timeoutMs: Limits.timeouts.remove },
      ),
    rename: (path: string, newName: string) => client.request(FileRoutes.rename, { body: { path, newName } }),
    exist: (path: string) => client.request(FileRoutes.exist, { body: { path } }),
    /** Whether the token's user may read or write `path` (`allowded`, the spec's spelling). */
    checkPermission: (path: string, permissionAction: 'read' | 'write') =>
      client.request(FileRoutes.checkPermission, { body: { path, permissionAction } }),
    tree: (path?: string) => client.request(FileRoutes.tree, { query: { path } }),
    previewCheck: (path: string) => client.request(PreviewRoutes.check, { body: { path } }),
    previewText: (path: string) => client.request(PreviewRoutes.text, { body: { path } }),
    editText: (path: string, content: string, expectedMtime?: number) =>
      client.request(PreviewRoutes.edit, { body: { path, content, expectedMtime } }),
    downloadCheck: (paths: string[]) =>
      client.request(DownloadRoutes.check, { body: { paths, urlLimit: Limits.downloadPathLimit } }),
    /** `cover` is false unless the user confirmed the overwrite prompt after a same-name refusal. */
    copyMove: (kind: 'copy' | 'move', paths: string[], targetPath: string, cover = false) =>
      client.request(
        OperationRoutes[kind],
        { body: { paths, targetPath, cover, clusterId } },
        { timeoutMs: Limits.timeouts.copyMove },
      ),
    operationProgress: (operationId: string) =>
      client.request(OperationRoutes.progress, { query: { operationId } }),
    operationCancel: (operationId: string) =>
      client.request(OperationRoutes.cancel, { body: { operationId, clusterId } }),
    deletePartial: (paths: string[]) =>
      client.request(UploadRoutes.deletePartial, { body: { paths, clusterId } }),
    merge: (body: { path: string; relativePath: string; identifier: string; overwrite: boolean }) =>
      client.request(UploadRoutes.merge, { body }),
    shareOpen: (query: RouteQuery<typeof ShareRoutes.open>) =>
      client.request(ShareRoutes.open, { query }, { timeoutMs: Limits.timeouts.share }),
    shareClose: (query: RouteQuery<typeof ShareRoutes.close>) =>
      client.request(ShareRoutes.close, { query }, { timeoutMs: Limits.timeouts.share }),
    shareList: (pageNum: number, pageSize: number, signal?: AbortSignal) =>
      client.request(ShareRoutes.list, { query: { pageNum, pageSize } }, { signal }),
    isIncludeShareFile: (paths: string[]) => client.request(ShareRoutes.includes, { query: { paths } }),
    linuxUpload: (path: string) => client.request(LinuxRoutes.uploadCommands, { query: { path } }),
    linuxDownload: (paths: string[]) => client.request(LinuxRoutes.downloadCommands, { body: { paths } }),
    /**
     * What `tar -cf - DIR | curl -T - URL` does: extracts the streamed archive below the folder the scoped token
     * names. No deadline (an archive may be hundreds of GB); `signal` ends it.
     */
    linuxTar: (token: string, body: Bytes, overwrite: boolean, signal?: AbortSignal) =>
      client.request(
        LinuxRoutes.putTar,
        { query: { overwrite }, body },
        {
          signal,
          timeoutMs: 0,
          // The scoped token goes in a header, never in the URL (access logs and proxies keep URLs).
          headers: { 'content-type': 'application/octet-stream', [LINUX_TOKEN_HEADER]: token },
        },
      ),

    /** URL of one file or folder (zip) for the browser to download. */
    downloadUrl: (path: string): Promise<string> => ticketUrl('download', DownloadRoutes.download, { path }),
    /** URL of a zip of several items: paths on the address, or a download key when they are too long. */
    multiDownloadUrl: (q: { paths?: string[]; downKey?: string; name?: string }): Promise<string> =>
      ticketUrl('multiDownload', DownloadRoutes.multi, q),
    /** Image preview URL: served with a sandbox CSP, so an SVG cannot run script in the portal's origin. */
    rawPreviewUrl: (path: string): Promise<string> => ticketUrl('previewRaw', PreviewRoutes.raw, { path }),
  };
}
export type EfileCalls = ReturnType<typeof efileApi>;

/** Length of the encoded `paths=…&paths=…` a zip download would put on the address (spec §5, 2000 limit). */
export const encodedPathsLength = (paths: readonly string[]): number =>
  toSearchParams({ paths }).toString().length;
