/**
 * Issue 12 §3: the scaled-out layout (scripts/scaled-layout.mjs, as `npm run start:scaled` starts it) measured in
 * one run, each pair side by side:
 *  - catalogue list requests per second through nginx with 2 portals, and through a second nginx on the same
 *    layout that knows only portal 1;
 *  - aggregate upload throughput of 8 clients (simple-uploader's protocol, 3 chunks in flight each, as the browser)
 *    spread over 2 efile instances of a cluster (round-robin by client), and all on instance 1.
 * Needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL: a `scaled_<random>` database is created and dropped)
 * and the redis-server binary (a server of its own on a free port). Build first: `node scripts/build.mjs`.
 * Run: `npx tsx bench/scaled/run.ts [--rounds 2] [--duration 10] [--mib 32]`. Prints a JSON summary.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, root, startNginx } from '../../scripts/scaled-layout.mjs';
import { uploadChunked } from '../efile/chunk-client';
import { PortalUser, startScaledForTest } from '../../test-support/scaled';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    mib: { type: 'string', default: '32' },
    clients: { type: 'string', default: '8' },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const connections = Number(values.connections);
const clients = Number(values.clients);
const fileBytes = Number(values.mib) * 1024 * 1024;

process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL;
if (!process.env.TEST_DATABASE_URL)
  throw new Error('set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL');

const run = await startScaledForTest({ env: { LOG_LEVEL: 'warn', UV_THREADPOOL_SIZE: '64' } });
const { layout } = run;
const onePortal = startNginx({
  runDir: layout.runDir,
  name: 'nginx-one-portal',
  listen: `127.0.0.1:${await freePort()}`,
  portals: [layout.portals[0]!],
  efiles: Object.values(layout.efiles).flat(),
});
await onePortal.ready();

/** autocannon in a process of its own (bench/catalog/load.ts) on the catalogue list call. */
function catalogue(url: string) {
  const input = {
    url,
    path: '/image-center/image/list',
    connections,
    duration,
    bodies: [
      { pageNum: 1, pageSize: 20 },
      { keyword: 'py' },
      { pageNum: 1, pageSize: 10, acceleratorType: 'GPU' },
    ],
  };
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/catalog/load.ts'), JSON.stringify(input)],
    {
      encoding: 'utf8',
      cwd: root,
    },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    rps: number;
    p99: number;
    non2xx: number;
    errors: number;
  };
}

// Upload clients: 8 users' worth of files from disk, each client uploading one file.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-scaled-'));
const local = path.join(work, 'client.bin');
fs.writeFileSync(local, crypto.randomBytes(fileBytes));
const demo = await PortalUser.login(layout.url, 'demo');
const token = await demo.token(layout.url, '11250');
const home = '/public/home/demo';
const efiles = layout.efiles['11250']!;
let seq = 0;

async function uploads(instances: number) {
  const tag = `r${seq++}`;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: clients }, (_, i) =>
      uploadChunked({
        base: `${layout.url}${efiles[i % instances]!.path}`,
        token,
        file: local,
        size: fileBytes,
        chunkSize: 1024 * 1024,
        path: home,
        name: `bench-${tag}-${i}.bin`,
        inFlight: 3,
      }),
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // Every file arrived whole (the last chunk's answer finalized it on its instance).
  const dir = path.join(layout.dataDir, 'clusters', '11250', home);
  for (let i = 0; i < clients; i++) {
    const f = path.join(dir, `bench-${tag}-${i}.bin`);
    if (fs.statSync(f).size !== fileBytes) throw new Error(`${f} is incomplete`);
    fs.rmSync(f);
  }
  return (clients * fileBytes) / 1024 / 1024 / seconds;
}

const results: Record<string, number[]> = { rps2: [], rps1: [], mibs2: [], mibs1: [] };
const detail: unknown[] = [];
try {
  catalogue(layout.url); // warm-up: both portals build their catalogue index
  catalogue(onePortal.url);
  for (let r = 0; r < rounds; r++) {
    // Alternate the order so that neither side always runs on a warmer machine.
    const pair = r % 2 === 0 ? [2, 1] : [1, 2];
    for (const n of pair) {
      const c = catalogue(n === 2 ? layout.url : onePortal.url);
      detail.push({ measure: 'catalogue', portals: n, ...c });
      results[`rps${n}`]!.push(c.rps);
    }
    for (const n of pair) {
      const mibs = await uploads(n);
      detail.push({ measure: 'upload', efileInstances: n, mibs });
      results[`mibs${n}`]!.push(mibs);
    }
  }
} finally {
  await onePortal.stop();
  await run.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary = {
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, ${os.release()}`,
  node: process.version,
  rounds,
  catalogue: {
    connections,
    duration,
    rps2Portals: Math.round(median(results.rps2!)),
    rps1Portal: Math.round(median(results.rps1!)),
    ratio: +(median(results.rps2!) / median(results.rps1!)).toFixed(2),
  },
  upload: {
    clients,
    mibPerClient: fileBytes / 1024 / 1024,
    mibs2Instances: Math.round(median(results.mibs2!)),
    mibs1Instance: Math.round(median(results.mibs1!)),
    ratio: +(median(results.mibs2!) / median(results.mibs1!)).toFixed(2),
  },
  detail,
};
console.log(JSON.stringify(summary, null, 2));
