import { ApiClient, chunkUploadApi, isApiError } from '@hpc/api-client';
import { chunkFields, chunkRange } from '@hpc/contracts';
import { getClusterToken } from '../../clusters';
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

/** The chunk parameters of spec §3 (the shared protocol) plus the target folder and the overwrite choice. */
function chunkParams(target: UploadTarget, file: FileTask, n: number): Record<string, string> {
  return chunkFields(
    {
      size: file.size,
      chunkSize: file.chunkSize,
      relativePath: file.relativePath,
      path: target.dir,
      identifier: file.identifier,
      overwrite: file.overwrite,
    },
    n,
  );
}

/**
 * `fetch` over XMLHttpRequest, because only XHR reports upload progress: the api-client then reads the answer's
 * envelope the way it reads every other one.
 */
function xhrFetch(onProgress: (loaded: number) => void): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      const signal = init.signal;
      const abort = () => xhr.abort();
      signal?.addEventListener('abort', abort, { once: true });
      const done = () => signal?.removeEventListener('abort', abort);
      xhr.upload.onprogress = (e) => onProgress(e.loaded);
      xhr.onload = () => {
        done();
        const headers = new Headers();
        const lang = xhr.getResponseHeader('content-language');
        if (lang) headers.set('content-language', lang);
        const empty = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
        resolve(
          new Response(empty ? null : xhr.responseText, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers,
          }),
        );
      };
      xhr.onerror = () => {
        done();
        reject(new TypeError('Network Error'));
      };
      xhr.onabort = () => {
        done();
        reject(new DOMException('The request was cancelled', 'AbortError'));
      };
      xhr.open(init.method ?? 'GET', input instanceof Request ? input.url : input.toString());
      new Headers(init.headers).forEach((v, k) => xhr.setRequestHeader(k, v));
      xhr.send(init.body as XMLHttpRequestBodyInit | null);
    });
}

/** The api-client's errors in the engine's terms: no answer at all is "0", a cancelled call is marked aborted. */
function chunkError(e: unknown): ChunkError {
  if (!isApiError(e)) return new ChunkError('0');
  if (e.kind === 'cancelled') return new ChunkError('0', true);
  if (e.kind === 'network' || e.kind === 'timeout') return new ChunkError('0');
  return new ChunkError(e.code);
}

/** simple-uploader has no deadline per chunk (a slow link may take long): neither does the engine. */
const chunkApi = (baseUrl: string, fetchImpl?: typeof fetch) =>
  chunkUploadApi(new ApiClient({ baseUrl, timeoutMs: 0, fetch: fetchImpl }));

/**
 * The browser transport: the test GET with fetch, the chunk POST with XMLHttpRequest for its progress, both
 * through the shared chunk calls of the api-client. Any non-2xx answer fails at once (0 retries, simple-uploader).
 */
export const browserTransport: ChunkTransport = {
  async test(target, file, n, signal) {
    const token = (await getClusterToken(target.clusterId)) ?? '';
    try {
      return await chunkApi(target.baseUrl).test(chunkParams(target, file, n), {
        signal,
        headers: { token },
      });
    } catch (e) {
      throw chunkError(e);
    }
  },

  async send(target, file, n, signal, onProgress) {
    const token = (await getClusterToken(target.clusterId)) ?? '';
    const { start, end } = chunkRange(n, file.size, file.chunkSize);
    const progress = (loaded: number) => onProgress(Math.min(loaded, end - start));
    try {
      const { complete } = await chunkApi(target.baseUrl, xhrFetch(progress)).send(
        chunkParams(target, file, n),
        file.blob.slice(start, end),
        { signal, headers: { token } },
      );
      return { complete };
    } catch (e) {
      throw chunkError(e);
    }
  },
};
