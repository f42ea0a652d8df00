import { UploadRoutes, type RouteData } from '@hpc/contracts';
import type { ApiClient } from './client';
import { ApiError } from './api-error';

/** What the server answers a stored chunk (`ChunkResponse`'s data). */
export type ChunkStored = RouteData<typeof UploadRoutes.chunk>;

export interface ChunkCallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** The multipart body of a chunk POST: the fields of `chunkFields` first, the `file` part last (spec §3). */
export function chunkForm(fields: Record<string, string>, chunk: Blob, filename = 'blob'): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', chunk, filename);
  return form;
}

/**
 * The two calls of the chunk protocol on an efile instance, through the client's envelope handling: a failure is
 * an {@link ApiError} with the envelope's code (or the bare status, or NETWORK/CANCELLED). The fields come from
 * `chunkFields` of `@hpc/contracts`. A chunk may take long on a slow link, so give the client `timeoutMs: 0`
 * (simple-uploader has no deadline either) unless a deadline is wanted.
 */
export function chunkUploadApi(client: ApiClient) {
  return {
    /** The test GET: true when the server already has the chunk (200), false when it must be sent (204). */
    async test(fields: Record<string, string>, opts: ChunkCallOptions = {}): Promise<boolean> {
      // The fields are the wire's strings (`chunkFields`), which efile coerces to `ChunkParams`' numbers.
      const { method, path } = UploadRoutes.chunkTest;
      const res = await client.send(path, { ...opts, method, query: fields });
      await res.body?.cancel();
      if (res.status === 200) return true;
      if (res.status === 204) return false;
      throw new ApiError({ code: String(res.status), msg: res.statusText, status: res.status, kind: 'http' });
    },

    /**
     * The POST of one chunk. A 2xx answer without an envelope (a proxy that ate the body) still means the chunk
     * was stored, as simple-uploader counts it: it resolves with `complete: false`, and the client's merge call
     * finishes the upload.
     */
    async send(
      fields: Record<string, string>,
      chunk: Blob,
      opts: ChunkCallOptions & { filename?: string } = {},
    ): Promise<Pick<ChunkStored, 'complete'> & Partial<ChunkStored>> {
      try {
        return await client.request(
          UploadRoutes.chunk,
          { body: chunkForm(fields, chunk, opts.filename) },
          { signal: opts.signal, headers: opts.headers },
        );
      } catch (e) {
        if (e instanceof ApiError && e.kind === 'http' && e.status >= 200 && e.status < 300)
          return { complete: false };
        throw e;
      }
    },
  };
}
export type ChunkUploadApi = ReturnType<typeof chunkUploadApi>;
