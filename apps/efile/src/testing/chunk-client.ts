import crypto from 'node:crypto';

/** Sends chunks the way simple-uploader.js 0.6 does (test GET, then multipart POST with a `file` part). */
export interface ChunkTarget {
  base: string;
  token: string;
  path: string;
  relativePath: string;
  data: Buffer;
  chunkSize: number;
  extra?: Record<string, string>;
}

export const totalChunksOf = (size: number, chunkSize: number) => Math.max(1, Math.floor(size / chunkSize));

export function chunkParams(t: ChunkTarget, n: number): Record<string, string> {
  const total = totalChunksOf(t.data.length, t.chunkSize);
  const start = (n - 1) * t.chunkSize;
  const end = n === total ? t.data.length : start + t.chunkSize;
  const filename = t.relativePath.split('/').pop()!;
  return {
    chunkNumber: String(n),
    chunkSize: String(t.chunkSize),
    currentChunkSize: String(end - start),
    totalSize: String(t.data.length),
    identifier: `${t.data.length}-${t.relativePath.replace(/[^0-9a-zA-Z_-]/gim, '')}`,
    filename,
    relativePath: t.relativePath,
    totalChunks: String(total),
    path: t.path,
    ...t.extra,
  };
}

export async function testChunk(t: ChunkTarget, n: number): Promise<Response> {
  const q = new URLSearchParams(chunkParams(t, n)).toString();
  return fetch(`${t.base}/chunkUpload.action?${q}`, { headers: { token: t.token } });
}

export async function postChunk(t: ChunkTarget, n: number): Promise<Response> {
  const p = chunkParams(t, n);
  const fd = new FormData();
  for (const [k, v] of Object.entries(p)) fd.append(k, v);
  const start = (n - 1) * t.chunkSize;
  fd.append('file', new Blob([t.data.subarray(start, start + Number(p.currentChunkSize))]), p.filename);
  return fetch(`${t.base}/chunkUpload.action`, { method: 'POST', body: fd, headers: { token: t.token } });
}

export const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
