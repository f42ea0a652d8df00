/**
 * What the page and the fast-transfer client say to each other over the local WebSocket or the relay
 * (docs/FASTRANS.md "The local protocol"): one definition read by both ends, so a field renamed on one side is a
 * type error on the other. Plain JSON, no schema at run time: the page trusts nothing it does not show, and the
 * client checks every request field by field (apps/fastrans/src/protocol.ts).
 */

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
  /** Bytes per second (smoothed) and seconds left; null while unknown. */
  speed: number;
  eta: number | null;
  local: string;
  remote: string;
  error: string | null;
  createdAt: number;
  updatedAt: number;
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
