import { Limits } from '@hpc/contracts';

/** The states of an upload list row (spec §4). Waiting, play and pause count as uploading. */
export type UploadStatus = 'waiting' | 'pause' | 'play' | 'error' | 'success';

/** Where an upload goes: a folder of one cluster's efile. */
export interface UploadTarget {
  clusterId: string;
  clusterName: string;
  /** Base URL of the efile instance (relative in the all-in-one). */
  baseUrl: string;
  /** The folder the upload lands in (spec: "upload directory", toPath). */
  dir: string;
  /**
   * Finds another working instance of the cluster when `baseUrl` stops answering mid-upload (spec §4 failover);
   * resolves with its base URL, or null when there is none.
   */
  failover?: () => Promise<string | null>;
}

/** One file of the uploader; a folder row owns many. */
export interface FileTask {
  id: string;
  rowId: string;
  blob: Blob;
  /** Path relative to the target folder, as sent to the server (`relativePath`). */
  relativePath: string;
  size: number;
  chunkSize: number;
  identifier: string;
  overwrite: boolean;
  /** Chunks the server has (1-based). */
  done: Set<number>;
  /** Bytes sent so far, including chunks in flight. */
  sent: number;
  /** No chunk below this is waiting to be sent (keeps scheduling O(1) per chunk on 100k-chunk files). */
  cursor: number;
  state: 'queued' | 'success' | 'error';
  errorCode?: string;
}

/** A row of the upload list panel (spec §3 "Upload list row"): a file, or a folder aggregating its files. */
export interface UploadRow {
  id: string;
  name: string;
  isFolder: boolean;
  target: UploadTarget;
  size: number;
  fileIds: string[];
  paused: boolean;
  averageSpeed: number;
  /** Set when something failed before any file could start (mkdir of a folder, a refused conflict check). */
  errorCode?: string;
}

/** What the panel shows of a row, derived from its files. */
export interface RowView {
  id: string;
  name: string;
  isFolder: boolean;
  clusterId: string;
  clusterName: string;
  toPath: string;
  size: number;
  progress: number;
  averageSpeed: number;
  status: UploadStatus;
  errorCode?: string;
  fileCount: number;
}

export function rowProgress(files: readonly FileTask[]): number {
  if (files.length === 0) return 0;
  const total = files.reduce((s, f) => s + f.size, 0);
  if (total === 0) return files.filter((f) => f.state === 'success').length / files.length;
  const sent = files.reduce((s, f) => s + (f.state === 'success' ? f.size : Math.min(f.sent, f.size)), 0);
  return sent / total;
}

/**
 * A row's state (spec §4): an error anywhere makes it an error row; it is a success when every file is (a folder is
 * finished at progress 1); otherwise paused, playing (something sent) or waiting.
 */
export function rowStatus(row: UploadRow, files: readonly FileTask[]): UploadStatus {
  if (row.errorCode || files.some((f) => f.state === 'error')) return 'error';
  // A folder of empty folders only has no files: it is done once they are created.
  if (files.every((f) => f.state === 'success')) return 'success';
  if (row.paused) return 'pause';
  return files.some((f) => f.sent > 0 || f.done.size > 0) ? 'play' : 'waiting';
}

/**
 * `shown` is the progress the row showed before: a pause drops the chunks in flight (they are sent again), which
 * would show less than before, down to 0 % (issue 25 §3.10). The row keeps what it showed until it passes it.
 */
export function viewRow(row: UploadRow, files: readonly FileTask[], shown = 0): RowView {
  const status = rowStatus(row, files);
  return {
    id: row.id,
    name: row.name,
    isFolder: row.isFolder,
    clusterId: row.target.clusterId,
    clusterName: row.target.clusterName,
    toPath: row.target.dir,
    size: row.size,
    progress: status === 'success' ? 1 : Math.max(shown, rowProgress(files)),
    averageSpeed: status === 'play' ? row.averageSpeed : 0,
    status,
    errorCode: row.errorCode ?? files.find((f) => f.state === 'error')?.errorCode,
    fileCount: files.length,
  };
}

export const isUploading = (s: UploadStatus): boolean => s === 'waiting' || s === 'play' || s === 'pause';

/** What the list's layout shows of a row: everything but progress and speed, which change on every tick. */
const rowShape = (r: RowView): string =>
  [r.id, r.status, r.errorCode ?? '', r.fileCount, r.size, r.name, r.toPath, r.clusterName].join('\u0000');

/**
 * `source()` kept as the same array until a row comes, goes or changes its shape, so a list rendered from it is
 * not rebuilt on the 500 ms progress tick (only the progress cells, which read the live rows, are).
 */
export function stableByShape(source: () => readonly RowView[]): () => readonly RowView[] {
  let seen: readonly RowView[] | null = null;
  let shape = '';
  let kept: readonly RowView[] = [];
  return () => {
    const rows = source();
    if (rows === seen) return kept;
    seen = rows;
    const next = rows.map(rowShape).join('\n');
    if (next !== shape || rows.length !== kept.length) {
      shape = next;
      kept = rows;
    }
    return kept;
  };
}

/** A picked or dropped file with its path relative to what was picked (`dir/sub/a.txt`, or just `a.txt`). */
export interface PickedFile {
  blob: Blob;
  relativePath: string;
}

/** What was picked, grouped into list rows: each top-level file, and each top-level folder with its contents. */
export interface PickedRoot {
  name: string;
  isFolder: boolean;
  files: PickedFile[];
  /** Folders (relative paths, root included) that hold no file, to be created with mkdir. */
  emptyDirs: string[];
}

export function groupByRoot(files: readonly PickedFile[], dirs: readonly string[] = []): PickedRoot[] {
  const roots = new Map<string, PickedRoot>();
  const get = (name: string, isFolder: boolean) => {
    let r = roots.get(name);
    if (!r) {
      r = { name, isFolder, files: [], emptyDirs: [] };
      roots.set(name, r);
    }
    return r;
  };
  for (const f of files) {
    const rel = f.relativePath.replace(/^\/+/, '');
    const slash = rel.indexOf('/');
    get(slash < 0 ? rel : rel.slice(0, slash), slash >= 0).files.push({ ...f, relativePath: rel });
  }
  for (const d of dirs) {
    const rel = d.replace(/^\/+|\/+$/g, '');
    if (!rel) continue;
    const root = get(rel.split('/')[0]!, true);
    const hasFile = root.files.some((f) => f.relativePath.startsWith(`${rel}/`));
    const hasSubdir = dirs.some((o) => o.replace(/^\/+|\/+$/g, '').startsWith(`${rel}/`));
    if (!hasFile && !hasSubdir) root.emptyDirs.push(rel);
  }
  return [...roots.values()];
}

/** Why a root cannot join the list (spec §5), or null. */
export type AddProblem = 'duplicate' | 'folderLimit';

export function addProblem(
  rows: readonly UploadRow[],
  root: { name: string; isFolder: boolean; fileCount: number },
  target: Pick<UploadTarget, 'clusterId' | 'dir'>,
  folderFileLimit: number = Limits.folderFileLimit,
): AddProblem | null {
  if (root.isFolder && root.fileCount > folderFileLimit) return 'folderLimit';
  const same = rows.some(
    (r) => r.name === root.name && r.target.dir === target.dir && r.target.clusterId === target.clusterId,
  );
  return same ? 'duplicate' : null;
}

/**
 * What deleting a row does (spec §4): an unfinished single file or an errored upload is cancelled and its partial
 * file deleted ("deleted"); anything else only leaves the list ("removed from list").
 */
export function deleteOutcome(view: Pick<RowView, 'status' | 'isFolder'>): 'deleted' | 'removed' {
  if (view.status === 'error') return 'deleted';
  if (isUploading(view.status) && !view.isFolder) return 'deleted';
  return 'removed';
}

/**
 * The next chunk to send: files in list order, skipping paused rows and finished files, the lowest chunk number
 * that is neither stored nor in flight, from the file's cursor (moved forward). `inFlight` holds `${fileId}:${n}`.
 */
export function nextChunk(
  order: readonly FileTask[],
  paused: (rowId: string) => boolean,
  inFlight: ReadonlySet<string>,
  totalOf: (f: FileTask) => number,
): { file: FileTask; n: number } | null {
  for (const f of order) {
    if (f.state !== 'queued' || paused(f.rowId)) continue;
    const total = totalOf(f);
    let n = Math.max(1, f.cursor);
    while (n <= total && (f.done.has(n) || inFlight.has(`${f.id}:${n}`))) n++;
    if (n <= total) {
      f.cursor = n;
      return { file: f, n };
    }
  }
  return null;
}
