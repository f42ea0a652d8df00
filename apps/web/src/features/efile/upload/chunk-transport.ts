import { getClusterToken } from '../../clusters';
import { chunkRange, totalChunks } from './chunk-math';
import type { FileTask, UploadTarget } from './upload-queue';

/** A failed chunk call: the envelope's code when the server sent one, else the HTTP status ("0" = network). */
export class ChunkError extends Error {
  constructor(
    readonly code: string,
    readonly aborted = false,
  ) {
    super(`chunk upload failed: ${code}`);
  }
}

/** How the engine talks to the server; replaced by a fake in unit tests. */
export interface ChunkTransport {
  /** The test GET: true when the server already has the chunk (200), false when it must be sent (204). */
  test(target: UploadTarget, file: FileTask, n: number, signal: AbortSignal): Promise<boolean>;
  /** The POST of one chunk; `onProgress` gets the bytes of this chunk sent so far. */
  send(
    target: UploadTarget,
    file: FileTask,
    n: number,
    signal: AbortSignal,
    onProgress: (loaded: number) => void,
  ): Promise<{ complete: boolean }>;
}

/** The chunk parameters of spec §3 plus the target folder (`path`) and the overwrite choice. */
export function chunkParams(target: UploadTarget, file: FileTask, n: number): Record<string, string> {
  const { start, end } = chunkRange(n, file.size, file.chunkSize);
  const name = file.relativePath.slice(file.relativePath.lastIndexOf('/') + 1);
  return {
    chunkNumber: String(n),
    chunkSize: String(file.chunkSize),
    currentChunkSize: String(end - start),
    totalSize: String(file.size),
    identifier: file.identifier,
    filename: name,
    relativePath: file.relativePath,
    totalChunks: String(totalChunks(file.size, file.chunkSize)),
    path: target.dir,
    overwrite: String(file.overwrite),
  };
}

function codeOf(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    if (typeof parsed.code === 'string') return parsed.code;
  } catch {
    // Not an envelope (a proxy's error page): the status is the code.
  }
  return String(status);
}

/**
 * The browser transport: the test GET with fetch, the chunk POST with XMLHttpRequest because only XHR reports
 * upload progress. Statuses follow simple-uploader: 200/201/202 succeed; anything else fails at once (0 retries).
 */
export const browserTransport: ChunkTransport = {
  async test(target, file, n, signal) {
    const token = (await getClusterToken(target.clusterId)) ?? '';
    const qs = new URLSearchParams(chunkParams(target, file, n)).toString();
    let res: Response;
    try {
      res = await fetch(`${target.baseUrl}/chunkUpload.action?${qs}`, { headers: { token }, signal });
    } catch {
      throw new ChunkError('0', signal.aborted);
    }
    if (res.status === 200) return true;
    if (res.status === 204) return false;
    throw new ChunkError(codeOf(res.status, await res.text().catch(() => '')));
  },

  async send(target, file, n, signal, onProgress) {
    const token = (await getClusterToken(target.clusterId)) ?? '';
    const { start, end } = chunkRange(n, file.size, file.chunkSize);
    const form = new FormData();
    for (const [k, v] of Object.entries(chunkParams(target, file, n))) form.append(k, v);
    form.append('file', file.blob.slice(start, end), 'blob');
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      const abort = () => xhr.abort();
      signal.addEventListener('abort', abort, { once: true });
      xhr.upload.onprogress = (e) => onProgress(Math.min(e.loaded, end - start));
      xhr.onload = () => {
        signal.removeEventListener('abort', abort);
        if (xhr.status >= 200 && xhr.status <= 202) {
          let complete = false;
          try {
            complete = Boolean(
              (JSON.parse(xhr.responseText) as { data?: { complete?: boolean } }).data?.complete,
            );
          } catch {
            // A 2xx without a body still stored the chunk.
          }
          resolve({ complete });
        } else reject(new ChunkError(codeOf(xhr.status, xhr.responseText)));
      };
      xhr.onerror = () => reject(new ChunkError('0'));
      xhr.onabort = () => reject(new ChunkError('0', true));
      xhr.open('POST', `${target.baseUrl}/chunkUpload.action`);
      xhr.setRequestHeader('token', token);
      xhr.send(form);
    });
  },
};
