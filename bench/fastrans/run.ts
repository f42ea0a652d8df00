/**
 * Fast-transfer benchmarks, side by side in one run (issue 11 §5). Not a test: figures go to docs/PERFORMANCE.md
 * "## Fast transfer". Run: `node --import tsx bench/fastrans/run.ts`. The efile server runs as operators run it (the
 * esbuild bundle, its own process); the client's runner runs in this process, as the client would.
 * FASTRANS_BENCH_MIB (default 4096), FASTRANS_BENCH_FILES (10,000 files of 10 KB) and FASTRANS_BENCH_ENTRIES
 * (1,000,000) scale it down for a quick look; FASTRANS_BENCH_ONLY=large,small,memory runs some sections.
 */
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair } from 'jose';
import { signClusterToken } from '@hpc/server-kit';
import { FastransTaskState as S } from '@hpc/contracts';
import { Runner } from '../../apps/fastrans/src/transfer/runner';
import { Remote } from '../../apps/fastrans/src/transfer/remote';
import { HistoryStore } from '../../apps/fastrans/src/store/history';
import { uploadChunked } from '../efile/chunk-client';

const here = path.dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;
const LARGE = Number(process.env.FASTRANS_BENCH_MIB ?? 4096) * MiB;
const FILES = Number(process.env.FASTRANS_BENCH_FILES ?? 10_000);
const ENTRIES = Number(process.env.FASTRANS_BENCH_ENTRIES ?? 1_000_000);
const ONLY = process.env.FASTRANS_BENCH_ONLY?.split(',');
const run = (s: string) => !ONLY || ONLY.includes(s);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-bench-'));
const root = path.join(tmp, 'root');
const home = path.join(root, 'public/home/demo');
fs.mkdirSync(home, { recursive: true });
const port = 31000 + Math.floor(Math.random() * 10000);
const base = `http://127.0.0.1:${port}`;
const secs = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const say = (s: string) => console.log(`${s} [load ${os.loadavg()[0]!.toFixed(1)}]`);

function writeRandomFile(file: string, size: number) {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(4 * MiB);
  for (let off = 0; off < size; off += block.length) {
    for (let i = 0; i < block.length; i += 4096) block.writeUInt32LE((off + i) >>> 0, i);
    fs.writeSync(fd, block, 0, Math.min(block.length, size - off));
  }
  fs.closeSync(fd);
}

let server: ChildProcess | undefined;

async function transfer(runner: Runner, start: () => Promise<{ task_id: string }>) {
  const t = await start();
  const end = await runner.waitFor(t.task_id);
  if (end.state !== S.successful) throw new Error(`task ended ${end.state}: ${end.error}`);
}

async function main() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA' }] };
  const jwksServer = http.createServer((_q, r) => r.end(JSON.stringify(jwks))).listen(0, '127.0.0.1');
  await new Promise((r) => jwksServer.once('listening', r));
  const token = await signClusterToken(privateKey, 'k1', {
    sub: 'bench',
    aud: 'bench',
    cun: 'demo',
    home: '/public/home/demo',
    paths: [],
    st: 'Normal',
    exp_acct: null,
  });
  execFileSync(process.execPath, ['scripts/build-servers.mjs'], { cwd: path.resolve(here, '../..') });
  server = spawn(process.execPath, [path.resolve(here, '../../apps/efile/dist/server.js')], {
    stdio: 'inherit',
    env: {
      ...process.env,
      UV_THREADPOOL_SIZE: '16',
      EFILE_CLUSTER_ID: 'bench',
      EFILE_PORT: String(port),
      EFILE_HOST: '127.0.0.1',
      EFILE_FS_ROOT: root,
      DATA_DIR: path.join(tmp, 'data'),
      LOG_LEVEL: 'warn',
      EFILE_FOLDER_FILE_LIMIT: '10000000',
      EFILE_JWKS_URL: `http://127.0.0.1:${(jwksServer.address() as { port: number }).port}/`,
    },
  });
  for (
    let i = 0;
    i < 200 &&
    !(await fetch(`${base}/check.action`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  )
    await new Promise((r) => setTimeout(r, 50));
  const H = { token };
  const warm = await fetch(`${base}/list.action?path=/public/home/demo&pageNum=1&pageSize=1`, { headers: H });
  if (!warm.ok) throw new Error(`warm-up: ${warm.status}`);
  say(
    `machine: ${os.cpus()[0]?.model} ×${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  const runner = new Runner({
    store: new HistoryStore(path.join(tmp, 'cfg')),
    emit: () => undefined,
    log: (m) => console.error(m),
  });
  runner.setRemote(new Remote([base], token));

  if (run('large')) {
    const src = path.join(tmp, 'large.bin');
    writeRandomFile(src, LARGE);
    const cmd = (await (
      await fetch(`${base}/linuxUpload.action?path=/public/home/demo`, { headers: H })
    ).json()) as {
      data: { url: string };
    };
    let t0 = process.hrtime.bigint();
    execFileSync('curl', ['-fsS', '-o', '/dev/null', '-T', src, `${cmd.data.url}curl.bin`]);
    const curl = secs(t0);
    t0 = process.hrtime.bigint();
    await transfer(runner, () => runner.addUpload(src, '/public/home/demo/client'));
    const client = secs(t0);
    const mibs = (s: number) => (LARGE / MiB / s).toFixed(0);
    say(
      `large file ${LARGE / MiB} MiB: curl -T ${curl.toFixed(1)} s (${mibs(curl)} MiB/s), client ${client.toFixed(1)} s (${mibs(client)} MiB/s, ranges + SHA-256 verify) = ${(curl / client).toFixed(2)}× curl (bar ≥ 0.8)`,
    );
    fs.rmSync(src);
    fs.rmSync(path.join(home, 'curl.bin'));
    fs.rmSync(path.join(home, 'client'), { recursive: true });
  }

  if (run('small')) {
    const dir = path.join(tmp, 'small');
    fs.mkdirSync(dir);
    const body = Buffer.alloc(10 * 1024, 7);
    for (let i = 0; i < FILES; i++) {
      body.writeUInt32LE(i, 0);
      fs.writeFileSync(path.join(dir, `f${i}.dat`), body);
    }
    let t0 = process.hrtime.bigint();
    await transfer(runner, () => runner.addUpload(dir, '/public/home/demo'));
    const client = secs(t0);
    // The browser's way: one chunk upload per file (test GET + multipart POST), 3 files at once (spec §9).
    fs.mkdirSync(path.join(home, 'browser'));
    t0 = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      [0, 1, 2].map(async () => {
        while (next < FILES) {
          const i = next++;
          await uploadChunked({
            base,
            token,
            file: path.join(dir, `f${i}.dat`),
            size: body.length,
            chunkSize: MiB,
            path: '/public/home/demo/browser',
            name: `f${i}.dat`,
            inFlight: 1,
          });
        }
      }),
    );
    const browser = secs(t0);
    say(
      `${FILES} files of 10 KB: client ${client.toFixed(1)} s (bar < 20 s), browser chunk protocol ${browser.toFixed(1)} s = ${(browser / client).toFixed(1)}× faster (bar ≥ 5×)`,
    );
  }

  if (run('memory')) {
    const dir = path.join(home, 'many');
    fs.mkdirSync(dir);
    for (let d = 0; d * 1000 < ENTRIES; d++) {
      const sub = path.join(dir, `d${d}`);
      fs.mkdirSync(sub);
      for (let i = 0; i < 1000 && d * 1000 + i < ENTRIES; i++) fs.writeFileSync(path.join(sub, `f${i}`), '');
    }
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const t0 = process.hrtime.bigint();
    await transfer(runner, () => runner.addDownload(['/public/home/demo/many'], path.join(tmp, 'down')));
    clearInterval(sample);
    say(
      `download of a ${ENTRIES}-entry folder: ${secs(t0).toFixed(1)} s, client peak RSS ${(peak / MiB).toFixed(0)} MB (bar < 300 MB)`,
    );
  }
  runner.close();
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => {
    server?.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
    setTimeout(() => process.exit(), 500).unref();
  });
