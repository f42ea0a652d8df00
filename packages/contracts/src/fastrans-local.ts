import { Type, type Static, type TSchema } from 'typebox';

/**
 * What the page and the fast-transfer client say to each other over the local WebSocket or the relay
 * (docs/FASTRANS.md "The local protocol"), declared once (issue 23 §2): `FastransLocalActions` holds each action's
 * request schema, `FastransLocalAnswers` the `data` of its answer. The client validates every request against the
 * table before the action runs (apps/fastrans/src/protocol.ts); the page's `request(action, args)` is typed from it
 * (apps/web/src/features/efile/fastrans/fastrans-client.ts), so an action, a field or an answer renamed on one side
 * is a type error on the other.
 *
 * The web imports this module's types only (`import type`): the schemas are `Type.*` calls, which the web build
 * marks pure, so nothing of the table reaches the browser's bundle. The page trusts nothing it does not show.
 *
 * A request is `{ id, action, …fields }`; fields not declared are ignored (the relay's envelope adds none, it takes
 * `client` and `wait` off first). Lenient where the first clients were: a list of paths may be one string.
 */

/** One or more non-empty strings: picked paths, sources. */
const Paths = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
]);
const Required = Type.String({ minLength: 1 });

export const FastransLocalActions = {
  /** Detection: the page compares the sign it sent, and has the portal verify the answer's `proof` of it. */
  check: Type.Object({ sign: Type.Optional(Type.String({ maxLength: 256 })) }),
  /** The day token of the portal's fast-transfer login; `portal` is used only when on the allow-list. */
  login: Type.Object({ token: Required, portal: Type.Optional(Type.String()) }),
  servers: Type.Object({}),
  /** A local folder (default the user's home), a page of at most 5,000 entries. */
  list: Type.Object({
    path: Type.Optional(Type.String()),
    offset: Type.Optional(Type.Number({ minimum: 0 })),
    limit: Type.Optional(Type.Number({ minimum: 0 })),
  }),
  /** `type` 0 files, 1 folders (each pick is checked to be that); `cover`/`overwrite` replace remote files. */
  upload: Type.Object({
    path: Required,
    local: Paths,
    type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
    cover: Type.Optional(Type.Boolean()),
    overwrite: Type.Optional(Type.Boolean()),
  }),
  /** Remote paths of one folder, into a local folder (default ~/Downloads). */
  download: Type.Object({ src: Paths, path: Type.Optional(Type.String()) }),
  /** `paths`, or `path` as the first clients sent it. */
  remove: Type.Object({ paths: Type.Optional(Paths), path: Type.Optional(Paths) }),
  rename: Type.Object({ path: Required, oldName: Required, newName: Required }),
  create_folder: Type.Object({ path: Required, name: Type.Optional(Type.String()) }),
  copy: Type.Object({ from: Paths, to: Required }),
  move: Type.Object({ from: Paths, to: Required }),
  /** `local`: a local path (else a remote one, asked of efile). */
  get_attributes: Type.Object({ path: Required, local: Type.Optional(Type.Boolean()) }),
  get_trans_count: Type.Object({}),
  open_trans_list: Type.Object({}),
  start_update: Type.Object({}),
  get_task_info: Type.Object({
    task_id: Required,
    control: Type.Optional(
      Type.Union([
        Type.Literal('pause'),
        Type.Literal('resume'),
        Type.Literal('cancel'),
        Type.Literal('retry'),
      ]),
    ),
  }),
  logout: Type.Object({}),
} satisfies Record<string, TSchema>;

export type FastransLocalAction = keyof typeof FastransLocalActions;
/** The fields of an action's request (without `id` and `action`). */
export type FastransLocalRequest<A extends FastransLocalAction> = Static<(typeof FastransLocalActions)[A]>;
/** A request as the page sends it (directly or through the relay): the action's name and its fields. */
export type FastransLocalCall = {
  [A in FastransLocalAction]: { action: A } & FastransLocalRequest<A>;
}[FastransLocalAction];

/** A task as the client reports it: the `task` event, `open_trans_list` and `get_task_info`. */
export interface FastransTaskSummary {
  task_id: string;
  kind: 'upload' | 'download';
  /** spec §4 states 0–13 (FastransTaskState). */
  state: number;
  /** Files in the task, how many are done and how many failed (spec §3 "files, count"). */
  files: number;
  count: number;
  failed: number;
  bytesDone: number;
  bytesTotal: number;
  /**
   * True while the task's files are still being listed (the transfer began with the first part): files and bytes
   * grow. Clients before it leave it out.
   */
  listing?: boolean;
  /** Bytes per second (smoothed) and seconds left; null while unknown. */
  speed: number;
  eta: number | null;
  local: string;
  remote: string;
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

/** `get_task_info`: the summary and the task's first 1,000 files (failed ones first). */
export interface FastransTaskInfo extends FastransTaskSummary {
  /** A file's own state (not a task state): waiting, opening on the server, sending, finalizing, done or failed. */
  list: {
    rel: string;
    size: number;
    state: 'todo' | 'opening' | 'active' | 'finalizing' | 'done' | 'failed';
    error: string | null;
  }[];
}

/** One entry of a local folder (`list`), for the page's picker of the user's own files. */
export interface FastransLocalEntry {
  name: string;
  path: string;
  dir: boolean;
  size: number;
  mtime: number;
}

/** The answer of `list`: a page of a local folder, its parent for the way up, and how many entries it has. */
export interface FastransLocalListing {
  path: string;
  parent: string;
  total: number;
  list: FastransLocalEntry[];
}

/** The answer of `login`: where the client is logged in, and the efile instances it spreads its work over. */
export interface FastransLocalLogin {
  portal: string;
  clusterId: string;
  clusterUserName: string;
  homePath: string;
  expiresAt: number;
  servers: string[];
}

/** The `data` of each action's answer (code "0"); a remote file call answers efile's own data. */
export interface FastransLocalAnswers {
  /**
   * `proof`: base64url of HMAC-SHA256(client key, sign), from a client whose package carried its user's key (the
   * page asks the portal to verify it before it sends anything else; a client without a key leaves it out).
   */
  check: { sign: string | null; version: string; protocolVersion: number; proof?: string };
  login: FastransLocalLogin;
  servers: { servers: string[] };
  list: FastransLocalListing;
  upload: { tasks: FastransTaskSummary[] };
  download: { task: FastransTaskSummary };
  remove: unknown;
  rename: unknown;
  create_folder: unknown;
  copy: unknown;
  move: unknown;
  /** A local path's `{ path, dir, size, mtime }`, or efile's `exist.action` answer for a remote one. */
  get_attributes: unknown;
  get_trans_count: { total: number; running: number; finished: number };
  open_trans_list: { list: FastransTaskSummary[] };
  start_update: { url: string | null; version: string };
  get_task_info: FastransTaskInfo;
  logout: null;
}
export type FastransLocalAnswer<A extends FastransLocalAction> = FastransLocalAnswers[A];
