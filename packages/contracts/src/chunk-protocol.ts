/**
 * The chunk upload protocol of spec §3 (simple-uploader.js 0.6 with `forceChunkSize: false`), written once for the
 * server that checks it and every client that speaks it: the web's upload engine, the efile route tests, the
 * benches. Pure arithmetic and string building, no Node or DOM types, so it runs everywhere the contracts do.
 *
 * A file of `size` bytes cut at `chunkSize` has floor(size / chunkSize) chunks, at least one; the remainder goes
 * into the last chunk, which is therefore between `chunkSize` and `2 × chunkSize - 1` bytes long (or the whole
 * file when it is smaller than one chunk). Chunks are numbered from 1.
 */

/** Number of chunks of a file. */
export function totalChunks(size: number, chunkSize: number): number {
  return Math.max(1, Math.floor(size / chunkSize));
}

/** Byte range [start, end) of chunk `n` (1-based, at most {@link totalChunks}). */
export function chunkRange(n: number, size: number, chunkSize: number): { start: number; end: number } {
  const start = (n - 1) * chunkSize;
  return { start, end: n === totalChunks(size, chunkSize) ? size : Math.min(size, start + chunkSize) };
}

/** simple-uploader's default identifier (spec §3): the size, a dash and the relative path without odd characters. */
export function chunkIdentifier(size: number, relativePath: string): string {
  return `${size}-${relativePath.replace(/[^0-9a-zA-Z_-]/gim, '')}`;
}

/** The numbers of a chunk request that must agree with each other. */
export interface ChunkGeometry {
  chunkNumber: number;
  chunkSize: number;
  currentChunkSize: number;
  totalSize: number;
  totalChunks: number;
}

/**
 * What is wrong with a chunk request's numbers: 'numbers' when the chunk count or number does not fit the file,
 * 'size' when the chunk's length is not the one its number implies, null when they agree. The server answers both
 * with "1004".
 */
export function chunkGeometryFault(g: ChunkGeometry): 'numbers' | 'size' | null {
  if (g.totalChunks !== totalChunks(g.totalSize, g.chunkSize) || g.chunkNumber > g.totalChunks)
    return 'numbers';
  const { start, end } = chunkRange(g.chunkNumber, g.totalSize, g.chunkSize);
  return g.currentChunkSize === end - start ? null : 'size';
}

/** One file being uploaded, as the chunk requests describe it. */
export interface ChunkedFile {
  size: number;
  chunkSize: number;
  /** Path of the file below the target folder: its name, or `folder/…/name` for a folder upload. */
  relativePath: string;
  /** The target folder (a cluster path). */
  path: string;
  /** Defaults to {@link chunkIdentifier}. */
  identifier?: string;
  /** Sent only when set: the server's default is not to overwrite. */
  overwrite?: boolean;
}

/**
 * The request fields of chunk `n` (spec §3), in simple-uploader's order: the test GET sends them as its query, the
 * POST as multipart fields before the `file` part. `extra` fields (folderFileCount, clusterId, …) come last.
 */
export function chunkFields(
  f: ChunkedFile,
  n: number,
  extra?: Record<string, string>,
): Record<string, string> {
  const { start, end } = chunkRange(n, f.size, f.chunkSize);
  const fields: Record<string, string> = {
    chunkNumber: String(n),
    chunkSize: String(f.chunkSize),
    currentChunkSize: String(end - start),
    totalSize: String(f.size),
    identifier: f.identifier ?? chunkIdentifier(f.size, f.relativePath),
    filename: f.relativePath.slice(f.relativePath.lastIndexOf('/') + 1),
    relativePath: f.relativePath,
    totalChunks: String(totalChunks(f.size, f.chunkSize)),
    path: f.path,
  };
  if (f.overwrite !== undefined) fields.overwrite = String(f.overwrite);
  return { ...fields, ...extra };
}

/**
 * The multipart/form-data framing of a chunk POST around its bytes, for clients that write the body themselves
 * (a bench that streams the slice from a file): `head` + chunk bytes + `tail`, sent with
 * `content-type: multipart/form-data; boundary=<boundary>`. Field values must not contain the boundary.
 */
export function chunkMultipart(
  fields: Record<string, string>,
  boundary: string,
  filename: string,
): { head: string; tail: string } {
  let head = '';
  for (const [k, v] of Object.entries(fields))
    head += `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  return { head, tail: `\r\n--${boundary}--\r\n` };
}
