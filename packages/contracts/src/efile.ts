import { Type, type Static, type TSchema } from 'typebox';
import { Page, PageQuery } from './common';
import { Envelope } from './envelope';

/**
 * E-File contracts: the file service of one cluster (spec §7 "File service"). Paths are cluster paths such as
 * `/public/home/demo/a.txt`. POST bodies may be JSON or form-urlencoded (array params repeated, `paths=a&paths=b`);
 * on POST calls the query string is merged into the body, so `?path=` works as the spec's calls send it.
 * Every JSON answer is the envelope; the token travels in the `token` header. Only the GETs a browser opens itself
 * (download, zip, image preview) take `?ticket=` (a one-minute ticket from `browserTicket.action`) or `?token=`.
 */

const ClusterPath = Type.String({ minLength: 1, maxLength: 4096 });
const Paths = Type.Array(ClusterPath, { minItems: 1, maxItems: 10_000 });
const Bool = Type.Boolean();
const Obj = <T extends Record<string, TSchema>>(p: T) => Type.Object(p);

export const PathQuery = Obj({ path: ClusterPath });
export type PathQuery = Static<typeof PathQuery>;

/** `GET /check.action` (no token). */
export const CheckResponse = Obj({ check_result: Type.String(), clusterId: Type.String() });

// ---- listing ----------------------------------------------------------------------------------------------------
export const ListSort = Type.Union(
  ['name', 'size', 'mtime', 'type', 'owner', 'permission'].map((s) => Type.Literal(s)),
);
export const ListQuery = Obj({
  path: ClusterPath,
  ...PageQuery.properties,
  sort: Type.Optional(Type.String({ default: 'name' })),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
  /** Case-insensitive substring of the name, within this directory only. */
  keyword: Type.Optional(Type.String({ maxLength: 255 })),
  showHidden: Type.Optional(Bool),
});
export type ListQuery = Static<typeof ListQuery>;

export const FileEntry = Obj({
  name: Type.String(),
  path: Type.String(),
  /** 'dir', 'file' or 'link' (a link whose target is outside the allowed roots or missing). */
  type: Type.String(),
  isDirectory: Bool,
  isLink: Bool,
  /** Lower-case extension without the dot, '' for none and for folders. */
  ext: Type.String(),
  owner: Type.String(),
  group: Type.String(),
  size: Type.Number(),
  /** Like `ls -l`: drwxr-xr-x. */
  permission: Type.String(),
  /** Modify time, ms since the epoch. */
  mtime: Type.Number(),
});
export type FileEntry = Static<typeof FileEntry>;
export const ListData = Obj({ path: Type.String(), ...Page(FileEntry).properties });
export const ListResponse = Envelope(ListData);

// ---- simple file operations -------------------------------------------------------------------------------------
/** `POST /mkdir.action`, `POST /touchFile.action`: `path` is the full path of the new item. */
export const CreateBody = Obj({ path: ClusterPath });
export const PathResponse = Envelope(Obj({ path: Type.String() }));
export const RemoveQuery = Obj({ recursive: Type.Optional(Bool) });
export const RemoveBody = Obj({ paths: Paths, recursive: Type.Optional(Bool) });
export const RemoveResponse = Envelope(Obj({ removed: Type.Integer() }));
export const RenameBody = Obj({ path: ClusterPath, newName: Type.String({ maxLength: 1024 }) });
export const ExistBody = Obj({ path: ClusterPath });
export const ExistResponse = Envelope(Obj({ exist: Bool, isDirectory: Bool }));

export const InitInfoResponse = Envelope(
  Obj({
    clusterId: Type.String(),
    homePath: Type.String(),
    username: Type.String(),
    sharePath: Type.String(),
    /** Home first, then the granted shared paths. */
    roots: Type.Array(Type.String()),
    shareMaxValidDays: Type.Integer(),
    chunkSize: Type.Integer(),
    maxChunkSize: Type.Integer(),
    simultaneousUploads: Type.Integer(),
    folderFileLimit: Type.Integer(),
    previewMaxBytes: Type.Integer(),
    downloadPathLimit: Type.Integer(),
    nameMaxLength: Type.Integer(),
    partialSuffix: Type.String(),
  }),
);

/** `GET /treeChildrenList.action?path=`: child folders only; no path = the user's roots. */
export const TreeQuery = Obj({ path: Type.Optional(ClusterPath) });
export const TreeNode = Obj({ name: Type.String(), path: Type.String(), isLeaf: Bool });
export const TreeResponse = Envelope(Obj({ list: Type.Array(TreeNode), truncated: Bool }));

export const CheckPermissionBody = Obj({
  path: ClusterPath,
  permissionAction: Type.Union([Type.Literal('read'), Type.Literal('write')]),
  share: Type.Optional(Bool),
});
/** The spec's spelling `allowded` is kept. */
export const CheckPermissionResponse = Envelope(Obj({ allowded: Bool }));

/** `POST /getUserToken.action?path=`: a fast-transfer token scoped to that directory (both directions). */
export const UserTokenResponse = Envelope(
  Obj({ token: Type.String(), clusterUserName: Type.String(), expiresAt: Type.Number() }),
);

// ---- preview / edit ----------------------------------------------------------------------------------------------
export const PreviewCheckResponse = Envelope(
  Obj({ path: Type.String(), size: Type.Number(), mtime: Type.Number(), encoding: Type.String() }),
);
export const PreviewTextResponse = Envelope(
  Obj({ path: Type.String(), content: Type.String(), size: Type.Number(), mtime: Type.Number() }),
);
/** `expectedMtime`: refuse ("1005"-style conflict → "1028") when the file changed since it was opened. */
export const EditTextBody = Obj({
  path: ClusterPath,
  content: Type.String(),
  expectedMtime: Type.Optional(Type.Number()),
});
/**
 * `GET /preview/raw.action?path=&ticket=`: images inline under a sandbox CSP, anything else as attachment. The browser
 * loads it itself (an `<img>`), so it authenticates with a browser ticket (or, for other clients, `?token=`).
 */
export const RawPreviewQuery = Obj({
  path: ClusterPath,
  token: Type.Optional(Type.String()),
  ticket: Type.Optional(Type.String()),
});

// ---- downloads ---------------------------------------------------------------------------------------------------
/** `GET /download.action?path=&ticket=` (or `&token=`): one file (Range supported) or one folder as zip. */
export const DownloadQuery = Obj({
  path: ClusterPath,
  token: Type.Optional(Type.String()),
  ticket: Type.Optional(Type.String()),
});
export const DownloadCheckBody = Obj({ paths: Paths, urlLimit: Type.Optional(Type.Integer()) });
/** `downKey` is set when the encoded paths exceed the URL limit (2000): use `multiDownload.action?downKey=`. */
export const DownloadCheckResponse = Envelope(
  Obj({
    downKey: Type.Union([Type.String(), Type.Null()]),
    fileCount: Type.Integer(),
    totalSize: Type.Number(),
  }),
);
export const MultiDownloadQuery = Obj({
  paths: Type.Optional(Type.Array(ClusterPath, { maxItems: 10_000 })),
  downKey: Type.Optional(Type.String({ maxLength: 100 })),
  token: Type.Optional(Type.String()),
  ticket: Type.Optional(Type.String()),
  name: Type.Optional(Type.String({ maxLength: 200 })),
});

/** The browser GETs a ticket may open (a browser cannot add the `token` header to a navigation or an `<img>`). */
export const BrowserAction = Type.Union([
  Type.Literal('download'),
  Type.Literal('multiDownload'),
  Type.Literal('previewRaw'),
]);
export type BrowserAction = Static<typeof BrowserAction>;
/**
 * `POST /browserTicket.action` (token header): a ticket for ONE browser GET, bound to the user, the action and these
 * exact parameters, valid for a minute; the GET then carries `?ticket=` instead of the 12-hour cluster token, so the
 * token is never on an address (history, logs, Referer).
 */
export const BrowserTicketBody = Obj({
  action: BrowserAction,
  path: Type.Optional(ClusterPath),
  paths: Type.Optional(Type.Array(ClusterPath, { maxItems: 10_000 })),
  downKey: Type.Optional(Type.String({ maxLength: 100 })),
  name: Type.Optional(Type.String({ maxLength: 200 })),
});
export type BrowserTicketBody = Static<typeof BrowserTicketBody>;
export const BrowserTicketResponse = Envelope(Obj({ ticket: Type.String(), expiresAt: Type.Number() }));

// ---- uploads -----------------------------------------------------------------------------------------------------
/** What simple-uploader.js 0.6 sends on every chunk request, plus our `path` (target folder) and flags. */
export const ChunkParams = Obj({
  chunkNumber: Type.Integer({ minimum: 1 }),
  chunkSize: Type.Integer({ minimum: 1 }),
  currentChunkSize: Type.Integer({ minimum: 0 }),
  totalSize: Type.Integer({ minimum: 0 }),
  identifier: Type.String({ minLength: 1, maxLength: 2048 }),
  filename: Type.String({ minLength: 1, maxLength: 1024 }),
  relativePath: Type.String({ minLength: 1, maxLength: 4096 }),
  totalChunks: Type.Integer({ minimum: 1 }),
  path: ClusterPath,
  overwrite: Type.Optional(Bool),
  /** Number of files of the folder this file belongs to, when the client knows it (refused over 1000). */
  folderFileCount: Type.Optional(Type.Integer({ minimum: 0 })),
  token: Type.Optional(Type.String()),
});
export type ChunkParams = Static<typeof ChunkParams>;
export const ChunkResponse = Envelope(
  Obj({ stored: Type.Integer(), totalChunks: Type.Integer(), complete: Bool, path: Type.String() }),
);
export const UploadTargetQuery = Obj({
  path: ClusterPath,
  relativePath: Type.String({ minLength: 1, maxLength: 4096 }),
  identifier: Type.String({ minLength: 1, maxLength: 2048 }),
});
export const ChunkStatusResponse = Envelope(
  Obj({ stored: Type.Array(Type.Integer()), totalChunks: Type.Integer(), complete: Bool }),
);
export const MergeBody = Obj({
  path: ClusterPath,
  relativePath: Type.String({ minLength: 1, maxLength: 4096 }),
  identifier: Type.String({ minLength: 1, maxLength: 2048 }),
  overwrite: Type.Optional(Bool),
});
export const MergeResponse = Envelope(Obj({ path: Type.String(), size: Type.Number() }));
/** `POST /upload/deletePartial.action`: `paths` are the final paths of unfinished uploads. */
export const DeletePartialBody = Obj({ paths: Paths, clusterId: Type.Optional(Type.String()) });
export const DeletePartialResponse = Envelope(Obj({ deleted: Type.Integer() }));

// ---- copy / move -------------------------------------------------------------------------------------------------
export const CopyMoveBody = Obj({
  paths: Paths,
  targetPath: ClusterPath,
  cover: Type.Optional(Bool),
  clusterId: Type.Optional(Type.String()),
});
export const OperationStartResponse = Envelope(Obj({ operationId: Type.String(), clusterId: Type.String() }));
export const OperationQuery = Obj({ operationId: Type.String({ minLength: 1, maxLength: 64 }) });
export const OperationCancelBody = Obj({
  operationId: Type.String({ minLength: 1, maxLength: 64 }),
  clusterId: Type.Optional(Type.String()),
});
export const OperationProgress = Obj({
  operationId: Type.String(),
  kind: Type.String(),
  /** running, done, failed, cancelled. */
  status: Type.String(),
  bytesDone: Type.Number(),
  bytesTotal: Type.Number(),
  filesDone: Type.Integer(),
  filesTotal: Type.Integer(),
  errorCode: Type.Union([Type.String(), Type.Null()]),
});
export const OperationProgressResponse = Envelope(OperationProgress);
export const OkResponse = Envelope(Type.Null());

// ---- shares ------------------------------------------------------------------------------------------------------
export const ShareOpenQuery = Obj({
  path: ClusterPath,
  validDays: Type.Optional(Type.String({ maxLength: 20 })),
  /** The extraction code; generated (6 characters) when absent. */
  password: Type.Optional(Type.String({ maxLength: 64 })),
});
export const ShareInfo = Obj({
  shareId: Type.String(),
  path: Type.String(),
  name: Type.String(),
  isDir: Bool,
  link: Type.String(),
  password: Type.String(),
  validDays: Type.Integer(),
  shareTime: Type.Number(),
  endUseTime: Type.Number(),
  /** valid, expired or closed. */
  status: Type.String(),
});
export const ShareOpenResponse = Envelope(ShareInfo);
export const ShareCloseQuery = Obj({
  shareId: Type.Optional(Type.String({ maxLength: 64 })),
  path: Type.Optional(ClusterPath),
});
export const ShareCloseResponse = Envelope(Obj({ closed: Type.Integer() }));
export const ShareListQuery = PageQuery;
export const ShareListResponse = Envelope(Page(ShareInfo));
export const IncludeShareQuery = Obj({ paths: Paths });
/** `shared`: a path itself is shared; `include`: a path is shared or contains shared items. */
export const IncludeShareResponse = Envelope(Obj({ include: Bool, shared: Bool, count: Type.Integer() }));

/** Anonymous calls of the recipient page (portal route /share/<clusterId>/<shareId>). */
export const PublicShareQuery = Obj({ shareId: Type.String({ minLength: 1, maxLength: 64 }) });
export const PublicShareInfoResponse = Envelope(
  Obj({ shareId: Type.String(), sharer: Type.String(), isDir: Bool, endUseTime: Type.Number() }),
);
export const ShareVerifyBody = Obj({
  shareId: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ maxLength: 64 }),
});
export const ShareVerifyResponse = Envelope(
  Obj({ shareToken: Type.String(), expiresAt: Type.Number(), name: Type.String(), isDir: Bool }),
);
/** `path` is relative to the shared item ('' = the shared folder itself). */
export const PublicListQuery = Obj({
  shareToken: Type.String({ minLength: 1, maxLength: 100 }),
  path: Type.Optional(Type.String({ maxLength: 4096 })),
  ...PageQuery.properties,
  sort: Type.Optional(Type.String({ default: 'name' })),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
});
export const PublicDownloadQuery = Obj({
  shareToken: Type.String({ minLength: 1, maxLength: 100 }),
  path: Type.Optional(Type.String({ maxLength: 4096 })),
  paths: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 1000 })),
});

// ---- Linux commands ----------------------------------------------------------------------------------------------
export const LinuxUploadQuery = Obj({ path: Type.Optional(Type.String({ maxLength: 4096 })) });
export const LinuxDownloadBody = Obj({ paths: Type.Optional(Paths), path: Type.Optional(ClusterPath) });
export const LinuxCommandResponse = Envelope(
  Obj({
    token: Type.String(),
    expiresAt: Type.Number(),
    url: Type.String(),
    /** Ready to paste; FILE / DIR stand for the local file or folder. */
    commands: Type.Array(Obj({ kind: Type.String(), command: Type.String() })),
  }),
);
/**
 * The header that carries a Linux command's scoped token: the generated commands hand it to curl in a config read
 * from a here-document (`-K /dev/fd/3`), so it is never on a command line, where every local account reads it
 * (`ps`, `/proc/<pid>/cmdline`) while the transfer runs.
 */
export const LINUX_TOKEN_HEADER = 'x-linux-token';
export const LinuxNameParams = Obj({ name: Type.String({ minLength: 1, maxLength: 1024 }) });
export const LinuxPutQuery = Obj({ overwrite: Type.Optional(Bool) });
export const LinuxPutResponse = Envelope(
  Obj({
    files: Type.Integer(),
    dirs: Type.Integer(),
    skipped: Type.Array(Type.String()),
    bytes: Type.Number(),
  }),
);

/**
 * The endpoints (method, path, these schemas) are declared in `efile.routes.ts` and `efile-links.routes.ts`; the
 * fast-transfer calls (`/fastrans/*.action`) in `fastrans.routes.ts`.
 */
