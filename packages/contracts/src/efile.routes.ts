import {
  BrowserTicketBody,
  BrowserTicketResponse,
  CheckPermissionBody,
  CheckPermissionResponse,
  CheckResponse,
  ChunkParams,
  ChunkResponse,
  ChunkStatusResponse,
  CopyMoveBody,
  CreateBody,
  DeletePartialBody,
  DeletePartialResponse,
  DownloadCheckBody,
  DownloadCheckResponse,
  DownloadQuery,
  EditTextBody,
  ExistBody,
  ExistResponse,
  InitInfoResponse,
  ListQuery,
  ListResponse,
  MergeBody,
  MergeResponse,
  MultiDownloadQuery,
  OkResponse,
  OperationCancelBody,
  OperationProgressResponse,
  OperationQuery,
  OperationStartResponse,
  PathQuery,
  PathResponse,
  PreviewCheckResponse,
  PreviewTextResponse,
  RawPreviewQuery,
  RemoveBody,
  RemoveResponse,
  RenameBody,
  TreeQuery,
  TreeResponse,
  UploadTargetQuery,
} from './efile';
import { HomeUsageResponse } from './efile-usage';
import { defineRoute } from './route';

/**
 * The calls of one cluster's efile (spec §7 "File service"), declared once for efile's routes and the clients
 * (`route.ts`). Paths are below the instance's mount point (`/efile/<clusterId>` in the all-in-one start). A
 * cluster token in the `token` header unless a table says otherwise. POST bodies are forms as the spec's clients
 * send them (efile reads JSON too, and merges a POST's query string into its body).
 */

/** Files and folders. */
export const FileRoutes = {
  /** The health check (no token): `{ check_result: 'ok' }`, not the envelope (spec). */
  check: defineRoute({ method: 'GET', path: '/check.action', response: CheckResponse }),
  list: defineRoute({ method: 'GET', path: '/list.action', query: ListQuery, response: ListResponse }),
  /** What the instance tells the client about itself and the user; answered to a disabled account too. */
  initInfo: defineRoute({ method: 'GET', path: '/initInfo.action', response: InitInfoResponse }),
  mkdir: defineRoute({
    method: 'POST',
    path: '/mkdir.action',
    body: CreateBody,
    bodyAs: 'form',
    response: PathResponse,
  }),
  touch: defineRoute({
    method: 'POST',
    path: '/touchFile.action',
    body: CreateBody,
    bodyAs: 'form',
    response: PathResponse,
  }),
  remove: defineRoute({
    method: 'POST',
    path: '/remove.action',
    body: RemoveBody,
    bodyAs: 'form',
    response: RemoveResponse,
  }),
  /** Errors "1005", "1021", "1023". */
  rename: defineRoute({
    method: 'POST',
    path: '/rename.action',
    body: RenameBody,
    bodyAs: 'form',
    response: PathResponse,
  }),
  exist: defineRoute({
    method: 'POST',
    path: '/exist.action',
    body: ExistBody,
    bodyAs: 'form',
    response: ExistResponse,
  }),
  /** Child folders only; no path = the user's roots. */
  tree: defineRoute({
    method: 'GET',
    path: '/treeChildrenList.action',
    query: TreeQuery,
    response: TreeResponse,
  }),
  checkPermission: defineRoute({
    method: 'POST',
    path: '/checkPermission.action',
    body: CheckPermissionBody,
    bodyAs: 'form',
    response: CheckPermissionResponse,
  }),
};

/** Text preview and editing, and the raw image preview a browser opens itself (`?ticket=`). */
export const PreviewRoutes = {
  /** Errors "1505", "1506". */
  check: defineRoute({
    method: 'POST',
    path: '/previewTextFileCheck.action',
    body: PathQuery,
    bodyAs: 'form',
    response: PreviewCheckResponse,
  }),
  text: defineRoute({
    method: 'POST',
    path: '/previewTextFile.action',
    body: PathQuery,
    bodyAs: 'form',
    response: PreviewTextResponse,
  }),
  edit: defineRoute({
    method: 'POST',
    path: '/editTextFile.action',
    body: EditTextBody,
    response: PathResponse,
  }),
  /** Images inline under a sandbox CSP, anything else as attachment. */
  raw: defineRoute({ method: 'GET', path: '/preview/raw.action', query: RawPreviewQuery }),
};

/** Downloads: the browser opens the GETs itself, with a one-minute ticket (`TicketRoutes`) or `?token=`. */
export const DownloadRoutes = {
  /** One file (Range supported) or one folder as a zip. */
  download: defineRoute({ method: 'GET', path: '/download.action', query: DownloadQuery }),
  /** Error "1508"; `downKey` set when the paths are too long for an address. */
  check: defineRoute({
    method: 'POST',
    path: '/downloadCheck.action',
    body: DownloadCheckBody,
    bodyAs: 'form',
    response: DownloadCheckResponse,
  }),
  /** A zip of several items: `paths`, or the `downKey` of the check. */
  multi: defineRoute({ method: 'GET', path: '/multiDownload.action', query: MultiDownloadQuery }),
};

/** A ticket for one browser GET (download, zip, image preview), bound to its exact parameters. */
export const TicketRoutes = {
  browserTicket: defineRoute({
    method: 'POST',
    path: '/browserTicket.action',
    body: BrowserTicketBody,
    bodyAs: 'form',
    response: BrowserTicketResponse,
  }),
};

/**
 * The chunk upload of spec §3 (simple-uploader's protocol, `chunk-protocol.ts`): a test GET per chunk, the chunk as
 * multipart (errors travel as 404, 415 or 500, which the uploader does not retry), the stored chunks of a file,
 * the idempotent merge, and the removal of unfinished uploads' partial files.
 */
export const UploadRoutes = {
  /** 200 (an envelope) when the chunk is stored already, 204 when it must be sent. */
  chunkTest: defineRoute({ method: 'GET', path: '/chunkUpload.action', query: ChunkParams }),
  /** The `ChunkParams` fields first, the `file` part last. */
  chunk: defineRoute({
    method: 'POST',
    path: '/chunkUpload.action',
    bodyAs: 'multipart',
    response: ChunkResponse,
  }),
  chunkStatus: defineRoute({
    method: 'GET',
    path: '/upload/chunkStatus.action',
    query: UploadTargetQuery,
    response: ChunkStatusResponse,
  }),
  merge: defineRoute({
    method: 'POST',
    path: '/merge.action',
    body: MergeBody,
    bodyAs: 'form',
    response: MergeResponse,
  }),
  /** `paths` are the final paths of unfinished uploads. */
  deletePartial: defineRoute({
    method: 'POST',
    path: '/upload/deletePartial.action',
    body: DeletePartialBody,
    bodyAs: 'form',
    response: DeletePartialResponse,
  }),
};

/** Copy and move run as operations (OPERATION_LIMIT), followed by their progress. */
export const OperationRoutes = {
  copy: defineRoute({
    method: 'POST',
    path: '/copy.action',
    body: CopyMoveBody,
    bodyAs: 'form',
    response: OperationStartResponse,
  }),
  move: defineRoute({
    method: 'POST',
    path: '/move.action',
    body: CopyMoveBody,
    bodyAs: 'form',
    response: OperationStartResponse,
  }),
  progress: defineRoute({
    method: 'GET',
    path: '/operationProgress.action',
    query: OperationQuery,
    response: OperationProgressResponse,
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/operationCancel.action',
    body: OperationCancelBody,
    bodyAs: 'form',
    response: OkResponse,
  }),
};

/** The home's used space and recent files, for the Dashboard (issue 22 §4): from a background count's cache. */
export const UsageRoutes = {
  usage: defineRoute({ method: 'GET', path: '/usage.action', response: HomeUsageResponse }),
};
