import {
  IncludeShareQuery,
  IncludeShareResponse,
  LinuxCommandResponse,
  LinuxDownloadBody,
  LinuxNameParams,
  LinuxPutQuery,
  LinuxPutResponse,
  LinuxUploadQuery,
  ListResponse,
  PathQuery,
  PublicDownloadQuery,
  PublicListQuery,
  PublicShareInfoResponse,
  PublicShareQuery,
  ShareCloseQuery,
  ShareCloseResponse,
  ShareListQuery,
  ShareListResponse,
  ShareOpenQuery,
  ShareOpenResponse,
  ShareVerifyBody,
  ShareVerifyResponse,
  UserTokenResponse,
} from './efile';
import { defineRoute } from './route';

/**
 * What reaches a user's files without the file manager (`route.ts`; the file manager's calls are in
 * `efile.routes.ts`): share links for others, and the URLs of the Linux commands for the user's own shell.
 */

/**
 * The Linux commands: curl lines with a scoped token for the user's shell, and the calls those lines make
 * (`/linux/…`, the scoped token in the `x-linux-token` header, LINUX_TOKEN_HEADER; no session token), which the
 * portal's own server-side calls (a model copied into a home) use too. A token never travels in a URL, where access
 * logs and proxies keep it (docs/DECISIONS.md, "The Linux commands' token in a header").
 */
export const LinuxRoutes = {
  /** Error "1003". */
  uploadCommands: defineRoute({
    method: 'GET',
    path: '/linuxUpload.action',
    query: LinuxUploadQuery,
    response: LinuxCommandResponse,
  }),
  downloadCommands: defineRoute({
    method: 'POST',
    path: '/fastrans/linuxDownload.action',
    body: LinuxDownloadBody,
    bodyAs: 'form',
    response: LinuxCommandResponse,
  }),
  /** A fast-transfer token scoped to that directory (both directions). */
  userToken: defineRoute({
    method: 'POST',
    path: '/getUserToken.action',
    body: PathQuery,
    bodyAs: 'form',
    response: UserTokenResponse,
  }),
  /** `curl -K <token header> -T FILE URL/`. */
  putFile: defineRoute({
    method: 'PUT',
    path: '/linux/put/:name',
    params: LinuxNameParams,
    query: LinuxPutQuery,
    bodyAs: 'bytes',
    response: LinuxPutResponse,
  }),
  /** `tar -cf - DIR | curl -K <token header> -T - URL`. */
  putTar: defineRoute({
    method: 'PUT',
    path: '/linux/tar',
    query: LinuxPutQuery,
    bodyAs: 'bytes',
    response: LinuxPutResponse,
  }),
  /** `curl -K <token header> URL`: bytes or a zip. */
  getFiles: defineRoute({ method: 'GET', path: '/linux/get' }),
};

/**
 * Shares: the owner's calls (token), and the recipient's anonymous ones (`/share/public/…`: the extraction code
 * buys a short-lived share token, which the list and download calls carry).
 */
export const ShareRoutes = {
  open: defineRoute({
    method: 'GET',
    path: '/share/open.action',
    query: ShareOpenQuery,
    response: ShareOpenResponse,
  }),
  close: defineRoute({
    method: 'GET',
    path: '/share/close.action',
    query: ShareCloseQuery,
    response: ShareCloseResponse,
  }),
  /** My shares. */
  list: defineRoute({
    method: 'GET',
    path: '/share/list.action',
    query: ShareListQuery,
    response: ShareListResponse,
  }),
  includes: defineRoute({
    method: 'GET',
    path: '/share/isIncludeShareFile.action',
    query: IncludeShareQuery,
    response: IncludeShareResponse,
  }),
  publicInfo: defineRoute({
    method: 'GET',
    path: '/share/public/info.action',
    query: PublicShareQuery,
    response: PublicShareInfoResponse,
  }),
  /** Errors "1026", "1509", LINK_CLOSED, 429. */
  publicVerify: defineRoute({
    method: 'POST',
    path: '/share/public/verify.action',
    body: ShareVerifyBody,
    bodyAs: 'form',
    response: ShareVerifyResponse,
  }),
  /** A page of the shared folder; paths relative to the shared item. */
  publicList: defineRoute({
    method: 'GET',
    path: '/share/public/list.action',
    query: PublicListQuery,
    response: ListResponse,
  }),
  /** Bytes of one item, or a zip of several (`paths`). */
  publicDownload: defineRoute({
    method: 'GET',
    path: '/share/public/download.action',
    query: PublicDownloadQuery,
  }),
};
