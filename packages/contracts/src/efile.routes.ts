import {
  IncludeShareQuery,
  IncludeShareResponse,
  ListResponse,
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
} from './efile';
import { defineRoute } from './route';

/**
 * The calls of one cluster's efile (spec §7 "File service"), declared once for efile's routes and the clients
 * (`route.ts`). Paths are below the instance's mount point (`/efile/<clusterId>` in the all-in-one start). A
 * cluster token in the `token` header unless a table says otherwise.
 */

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
