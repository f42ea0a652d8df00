import fs from 'node:fs';
import os from 'node:os';
import type { FileHandle } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { totalChunks } from '@hpc/contracts';
import { signClusterToken } from '@hpc/server-kit';
import { makeHarness, makeKeys, type Harness } from '../../efile.test-fixture';
import { makeTempDir } from '@hpc/server-kit/testing';
import { startEfileProcess } from '../../../../../test-support/efile-process';
import { postChunk, sha256, type ChunkTarget } from './chunk-client.test-fixture';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('robustness (real processes, real files)', () => {
  const tmp = makeTempDir('efile-robust-');
  afterAll(() => tmp.cleanup());
  beforeAll(async () => {
    const script = '../../../../../scripts/build-servers.mjs';
    const { buildEfileServer } = (await import(/* @vite-ignore */ path.resolve(here, script))) as {
      buildEfileServer: () => Promise<void>;
    };
    await buildEfileServer();
  });

  it('survives 20 SIGKILLs in the middle of an upload and resumes to the exact file', async () => {
    const keys = await makeKeys();
    const jwksServer = http.createServer((_req, res) => res.end(JSON.stringify(keys.jwks)));
    await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
    const jwksPort = (jwksServer.address() as { port: number }).port;
    const root = path.join(tmp.dir, 'kill-root');
    fs.mkdirSync(root + '/public/home/demo', { recursive: true });
    const env = {
      EFILE_CLUSTER_ID: 'c1',
      EFILE_FS_ROOT: root,
      DATA_DIR: path.join(tmp.dir, 'kill-data'),
      EFILE_JWKS_URL: `http://127.0.0.1:${jwksPort}/jwks`,
      UV_THREADPOOL_SIZE: '8',
    };
    // The built bundle, ready when it logs that it listens (see test-support/efile-process.ts).
    const start = () => startEfileProcess({ env });
    const token = await signClusterToken(keys.privateKey, 'k1', {
      sub: 'u1',
      aud: 'c1',
      cun: 'demo',
      home: '/public/home/demo',
      paths: [],
      st: 'Normal',
      exp_acct: null,
    });
    const t: ChunkTarget = {
      base: '',
      token,
      path: '/public/home/demo',
      relativePath: 'kill.bin',
      data: crypto.randomBytes(64 * 1024 * 1024),
      chunkSize: 1024 * 1024,
    };
    const total = totalChunks(t.data.length, t.chunkSize);
    const identifier = `${t.data.length}-killbin`;
    let kills = 0;
    let done = false;
    while (!done) {
      const server = await start();
      t.base = server.base;
      const status = await fetch(
        `${t.base}/upload/chunkStatus.action?path=/public/home/demo&relativePath=kill.bin&identifier=${identifier}`,
        { headers: { token } },
      ).then((r) => r.json() as Promise<{ data: { stored: number[]; complete: boolean } }>);
      if (status.data.complete) {
        await server.stop();
        break;
      }
      const missing = Array.from({ length: total }, (_, i) => i + 1).filter(
        (n) => !status.data.stored.includes(n),
      );
      if (kills < 20) {
        // Three chunks in flight, the process killed while they are being written.
        const inflight = missing.slice(0, 3).map((n) => postChunk(t, n).catch(() => null));
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 40));
        server.child.kill('SIGKILL');
        await Promise.all(inflight);
        await server.exited;
        kills++;
        continue;
      }
      for (let i = 0; i < missing.length; i += 3) {
        const rs = await Promise.all(missing.slice(i, i + 3).map((n) => postChunk(t, n)));
        expect(rs.every((r) => r.status === 200)).toBe(true);
      }
      done = true;
      await server.stop();
    }
    jwksServer.close();
    expect(kills).toBe(20);
    expect(sha256(fs.readFileSync(root + '/public/home/demo/kill.bin'))).toBe(sha256(t.data));
    expect(fs.readdirSync(root + '/public/home/demo')).toEqual(['kill.bin']);
    // A guard against a hang, not a speed bar: every wait above ends on an event (a log line, an exit, an answer).
  }, 600_000);

  /** Uploads 12 MiB into `small` (which holds 8 MiB) chunk by chunk; the first refused chunk's status and code. */
  async function fillUp(h: Harness, folder: string) {
    const t: ChunkTarget = {
      base: `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`,
      token: await h.token(),
      path: folder,
      relativePath: 'too-big.bin',
      data: crypto.randomBytes(12 * 1024 * 1024),
      chunkSize: 1024 * 1024,
    };
    for (let n = 1; n <= totalChunks(t.data.length, t.chunkSize); n++) {
      const r = await postChunk(t, n);
      if (r.status !== 200) return { status: r.status, code: ((await r.json()) as { code: string }).code };
    }
    return null;
  }

  const asRoot = process.getuid?.() === 0;
  it.skipIf(!asRoot)(
    'reports 1501 on a full file system and leaves nothing behind (a real 8 MiB tmpfs: NEEDS ROOT to mount)',
    async () => {
      const h = await makeHarness({ dir: path.join(tmp.dir, 'full') });
      const small = h.home + '/small';
      fs.mkdirSync(small);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', small]);
      try {
        await h.app.listen({ port: 0, host: '127.0.0.1' });
        expect(await fillUp(h, '/public/home/demo/small')).toEqual({ status: 500, code: '1501' });
        expect(fs.readdirSync(small)).toEqual([]);
      } finally {
        await h.app.close();
        execFileSync('umount', [small]);
        await h.close();
      }
    },
  );

  it('reports 1501 when the write layer says ENOSPC (injected: runs without root too)', async () => {
    const h = await makeHarness({ dir: path.join(tmp.dir, 'full-injected') });
    const small = h.home + '/small';
    fs.mkdirSync(small);
    // Every FileHandle shares one prototype: after 8 MiB, writev fails the way a full file system makes it fail.
    const probe = await fs.promises.open(os.devNull);
    const proto = Object.getPrototypeOf(probe) as { writev: FileHandle['writev'] };
    await probe.close();
    const realWritev = proto.writev;
    let budget = 8 * 1024 * 1024;
    const spy = vi.spyOn(proto, 'writev').mockImplementation(async function (this: FileHandle, buffers, pos) {
      const bytes = buffers.reduce((a, b) => a + b.byteLength, 0);
      if (bytes > budget)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      budget -= bytes;
      return realWritev.call(this, buffers, pos);
    });
    try {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      expect(await fillUp(h, '/public/home/demo/small')).toEqual({ status: 500, code: '1501' });
      expect(spy).toHaveBeenCalled();
      expect(fs.readdirSync(small)).toEqual([]);
    } finally {
      spy.mockRestore();
      await h.app.close();
      await h.close();
    }
  });

  it('serves 50 parallel uploads and downloads for 30 s without an error (issue 4 §8)', async () => {
    const h = await makeHarness({ dir: path.join(tmp.dir, 'load') });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    const token = await h.token();
    const blob = crypto.randomBytes(2 * 1024 * 1024);
    fs.writeFileSync(h.home + '/dl.bin', blob);
    const digest = sha256(blob);
    const until = Date.now() + 30_000;
    const errors: string[] = [];
    let ops = 0;
    const uploader = async (w: number) => {
      for (let i = 0; Date.now() < until; i++) {
        const t: ChunkTarget = {
          base,
          token,
          path: '/public/home/demo',
          relativePath: `u${w}-${i}.bin`,
          data: crypto.randomBytes(200_000),
          chunkSize: 64 * 1024,
        };
        const rs = await Promise.all([1, 2, 3].map((n) => postChunk(t, n)));
        if (rs.some((r) => r.status !== 200))
          errors.push(`upload ${w}/${i}: ${rs.map((r) => r.status).join(',')}`);
        else if (sha256(fs.readFileSync(`${h.home}/u${w}-${i}.bin`)) !== sha256(t.data))
          errors.push(`upload ${w}/${i}: content`);
        ops++;
      }
    };
    const downloader = async (w: number) => {
      while (Date.now() < until) {
        const r = await fetch(`${base}/download.action?path=/public/home/demo/dl.bin`, {
          headers: { token },
        });
        const body = Buffer.from(await r.arrayBuffer());
        if (r.status !== 200 || sha256(body) !== digest) errors.push(`download ${w}: ${r.status}`);
        ops++;
      }
    };
    await Promise.all([
      ...Array.from({ length: 25 }, (_, i) => uploader(i)),
      ...Array.from({ length: 25 }, (_, i) => downloader(i)),
    ]);
    await h.close();
    expect(errors).toEqual([]);
    expect(ops).toBeGreaterThan(100);
  }, 120_000);
});
