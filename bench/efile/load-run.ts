/**
 * The endurance line of the bench: `workers` clients for `seconds`, half uploading small files with the chunk
 * protocol (test GET + POST, 3 chunks in flight), half downloading one 2 MiB file; every byte is checked. The test
 * suite runs the same mix for 10 s (upload-robustness.test.ts); here it runs longer against the real process.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { uploadChunked } from './chunk-client';

export interface LoadOptions {
  base: string;
  token: string;
  /** Host path of the user's home (cluster path /public/home/demo). */
  home: string;
  seconds: number;
  workers: number;
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

function get(agent: http.Agent, url: string, token: string) {
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { agent, headers: { token } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

export async function loadRun(o: LoadOptions) {
  const dir = fs.mkdtempSync(path.join(o.home, '..', 'load-src-'));
  fs.mkdirSync(path.join(o.home, 'load'));
  const blob = crypto.randomBytes(2 * 1024 * 1024);
  fs.writeFileSync(path.join(o.home, 'load', 'dl.bin'), blob);
  const digest = sha256(blob);
  const until = Date.now() + o.seconds * 1000;
  const errors: string[] = [];
  let uploads = 0;
  let downloads = 0;
  const uploader = async (w: number) => {
    for (let i = 0; Date.now() < until; i++) {
      const name = `u${w}-${i}.bin`;
      const data = crypto.randomBytes(200_000);
      fs.writeFileSync(path.join(dir, name), data);
      try {
        await uploadChunked({
          base: o.base,
          token: o.token,
          file: path.join(dir, name),
          size: data.length,
          chunkSize: 64 * 1024,
          path: '/public/home/demo/load',
          name,
          inFlight: 3,
        });
        const out = path.join(o.home, 'load', name);
        if (sha256(fs.readFileSync(out)) !== sha256(data)) errors.push(`upload ${name}: content`);
        fs.rmSync(out);
        uploads++;
      } catch (e) {
        errors.push(`upload ${name}: ${(e as Error).message}`);
      }
      fs.rmSync(path.join(dir, name));
    }
  };
  const agent = new http.Agent({ keepAlive: true });
  const downloader = async (w: number) => {
    while (Date.now() < until) {
      try {
        const r = await get(agent, `${o.base}/download.action?path=/public/home/demo/load/dl.bin`, o.token);
        if (r.status !== 200 || sha256(r.body) !== digest) errors.push(`download ${w}: ${r.status}`);
        downloads++;
      } catch (e) {
        errors.push(`download ${w}: ${(e as Error).message}`);
      }
    }
  };
  const half = Math.floor(o.workers / 2);
  await Promise.all([
    ...Array.from({ length: half }, (_, i) => uploader(i)),
    ...Array.from({ length: o.workers - half }, (_, i) => downloader(i)),
  ]);
  agent.destroy();
  fs.rmSync(dir, { recursive: true });
  fs.rmSync(path.join(o.home, 'load'), { recursive: true });
  return { ops: uploads + downloads, uploads, downloads, errors };
}
