/**
 * A lean client for simple-uploader.js's chunk protocol, so the bench measures the server and not the client:
 * `node:http` with a keep-alive agent (one socket per upload lane, as a browser reuses its connections), the
 * multipart framing (the shared chunk protocol's) built per chunk as two small buffers around the file slice, which is read from one open file
 * straight into the buffer that is written to the socket (no Blob/FormData copies, no open/close per chunk). Per chunk, exactly what the browser does: a test GET (200 = stored, 204 = send it),
 * then the multipart POST with the fields first and the `file` part last.
 */
import fs from 'node:fs';
import http from 'node:http';
import { chunkFields, chunkMultipart, chunkRange, totalChunks } from '@hpc/contracts';

export interface ChunkUpload {
  base: string;
  token: string;
  /** Local file to send. */
  file: string;
  size: number;
  chunkSize: number;
  /** Folder (cluster path) and name of the target. */
  path: string;
  name: string;
  inFlight: number;
}

const BOUNDARY = '----efilebench7MA4YWxkTrZu0gW';

function request(agent: http.Agent, url: string, opts: http.RequestOptions, body?: Buffer[]) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(url, { agent, ...opts }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!body) return req.end();
    for (let i = 0; i < body.length - 1; i++) req.write(body[i]);
    req.end(body[body.length - 1]);
  });
}

/** Uploads the file; resolves with the number of chunks the test GETs found already stored. */
export async function uploadChunked(u: ChunkUpload): Promise<{ skipped: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: u.inFlight });
  const fh = await fs.promises.open(u.file);
  const file = { size: u.size, chunkSize: u.chunkSize, relativePath: u.name, path: u.path };
  const chunks = totalChunks(u.size, u.chunkSize);
  let next = 1;
  let skipped = 0;
  const worker = async () => {
    // One buffer per lane, reused: the previous chunk's body was sent before its answer came back. A fresh 1 MiB
    // buffer per chunk cost the client page faults and GC, CPU the server then did not get on 2 cores.
    const lane = Buffer.allocUnsafeSlow(u.chunkSize * 2);
    while (next <= chunks) {
      const n = next++;
      const p = chunkFields(file, n);
      const { start, end } = chunkRange(n, u.size, u.chunkSize);
      const test = await request(agent, `${u.base}/chunkUpload.action?${new URLSearchParams(p).toString()}`, {
        headers: { token: u.token },
      });
      if (test.status === 200) {
        skipped++;
        continue;
      }
      if (test.status !== 204) throw new Error(`test chunk ${n}: ${test.status} ${test.text}`);
      const { head, tail } = chunkMultipart(p, BOUNDARY, u.name);
      const framing = [Buffer.from(head), Buffer.from(tail)];
      const data = lane.subarray(0, end - start);
      const { bytesRead } = await fh.read(data, 0, data.length, start);
      if (bytesRead !== data.length) throw new Error(`short read of chunk ${n}`);
      const r = await request(
        agent,
        `${u.base}/chunkUpload.action`,
        {
          method: 'POST',
          headers: {
            token: u.token,
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
            'content-length': String(framing[0]!.length + (end - start) + framing[1]!.length),
          },
        },
        [framing[0]!, data, framing[1]!],
      );
      if (r.status !== 200) throw new Error(`chunk ${n}: ${r.status} ${r.text}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: u.inFlight }, worker));
  } finally {
    agent.destroy();
    await fh.close();
  }
  return { skipped };
}
