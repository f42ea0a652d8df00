import crypto from 'node:crypto';
import { chunkFields, chunkRange } from '@hpc/contracts';

/**
 * Sends chunks the way simple-uploader.js 0.6 does (test GET, then multipart POST with a `file` part), with the
 * shared protocol's fields, and hands back the raw answers: the route tests assert on statuses.
 */
export interface ChunkTarget {
  base: string;
  token: string;
  path: string;
  relativePath: string;
  data: Buffer;
  chunkSize: number;
  extra?: Record<string, string>;
}

export const chunkParams = (t: ChunkTarget, n: number): Record<string, string> =>
  chunkFields(
    { size: t.data.length, chunkSize: t.chunkSize, relativePath: t.relativePath, path: t.path },
    n,
    t.extra,
  );

export async function testChunk(t: ChunkTarget, n: number): Promise<Response> {
  const q = new URLSearchParams(chunkParams(t, n)).toString();
  return fetch(`${t.base}/chunkUpload.action?${q}`, { headers: { token: t.token } });
}

export async function postChunk(t: ChunkTarget, n: number): Promise<Response> {
  const p = chunkParams(t, n);
  const fd = new FormData();
  for (const [k, v] of Object.entries(p)) fd.append(k, v);
  const { start, end } = chunkRange(n, t.data.length, t.chunkSize);
  fd.append('file', new Blob([t.data.subarray(start, end)]), p.filename);
  return fetch(`${t.base}/chunkUpload.action`, { method: 'POST', body: fd, headers: { token: t.token } });
}

export const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
