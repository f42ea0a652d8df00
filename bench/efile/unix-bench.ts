/**
 * Unix mode against single mode in one run (issue 10 §4). Not a test: figures go to docs/PERFORMANCE.md
 * "### Unix mode (issue 10)". Needs root (it creates the user `tuxbench` and removes it afterwards).
 * Run: `node --import tsx bench/efile/unix-bench.ts`; BENCH_UPLOAD_MIB (512), BENCH_DOWNLOAD_MIB (1024),
 * BENCH_ZIP_FILES (5000), BENCH_LIST_ENTRIES (100000), BENCH_ROUNDS (3) scale it; BENCH_SERVER_FLAGS adds Node flags to
 * both modes' servers (e.g. the workers' `--initial-old-space-size=128`, to see what it does for single mode).
 *
 * Two efile servers from the bundle over ONE file-system root: `single` (in-process file calls, as root) and `unix`
 * (every call in the user's worker). Rounds alternate between the two modes, so the load of the shared machine
 * falls on both alike; medians are compared. Every line carries the 1-minute load average.
 */
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuOf, median, MiB, ms, reporter, secs, settle, writeRandomFile } from '../bench-kit';
import { timeColdStarts } from './cold-start';
import { uploadChunked } from './chunk-client';
import { efileCalls, startStandInPortal, warmUp } from '../../test-support/stand-in-portal';
import { startEfileProcess, type EfileProcess } from '../../test-support/efile-process';
import { createUsers, idOf, makeHome, removeUsers } from '../../test-support/unix-users';

if (process.getuid?.() !== 0) {
  console.error('unix-bench needs root: it creates a user and starts efile in unix mode');
  process.exit(1);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const UPLOAD = Number(process.env.BENCH_UPLOAD_MIB ?? 512) * MiB;
const DOWNLOAD = Number(process.env.BENCH_DOWNLOAD_MIB ?? 1024) * MiB;
const ZIP_FILES = Number(process.env.BENCH_ZIP_FILES ?? 5000);
const LIST_ENTRIES = Number(process.env.BENCH_LIST_ENTRIES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USER = 'tuxbench';
const HOME = `/public/home/${USER}`;
type Mode = 'single' | 'unix';
const MODES: Mode[] = ['single', 'unix'];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'efile-unix-bench-'));
fs.chmodSync(tmp, 0o755);
const root = path.join(tmp, 'root');
const home = path.join(root, HOME);
const f = (xs: number[], d = 0) => xs.map((x) => x.toFixed(d)).join('/');
const { say, lines: results } = reporter();
const giveToUser = (p: string) => execFileSync('chown', ['-R', `${USER}:${USER}`, p]);

const servers = new Map<Mode, EfileProcess>();

async function main() {
  createUsers([USER]);
  makeHome(home, USER);

  const portal = await startStandInPortal(USER, HOME);
  const { token } = portal;
  execFileSync(process.execPath, ['scripts/build-servers.mjs'], { cwd: path.resolve(here, '../..') });
  for (const mode of MODES) {
    // BENCH_PROFILE=<dir>: CPU profiles (`node --cpu-prof`) of both modes' servers, and in unix mode of the launcher
    // and the user's worker too (they inherit the flag; the folder is made writable for the worker's user). Each
    // process writes its profile when it exits: the worker when the front end stops.
    const profDir = process.env.BENCH_PROFILE && path.join(process.env.BENCH_PROFILE, mode);
    if (profDir) fs.mkdirSync(profDir, { recursive: true, mode: 0o1777 });
    if (profDir) fs.chmodSync(profDir, 0o1777);
    const started = await startEfileProcess({
      nodeArgs: [
        ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
        ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []),
      ],
      log: 'inherit',
      env: {
        UV_THREADPOOL_SIZE: '64',
        EFILE_CLUSTER_ID: 'bench',
        EFILE_FS_ROOT: root,
        EFILE_USER_MODE: mode,
        DATA_DIR: path.join(tmp, `data-${mode}`),
        EFILE_FOLDER_FILE_LIMIT: '1000000',
        EFILE_JWKS_URL: portal.jwksUrl,
        EFILE_SERVICE_SECRET: 'bench',
      },
    });
    servers.set(mode, started);
    const { base } = started;
    // The first call: JWKS fetched, and in unix mode the user's worker started.
    await warmUp(efileCalls(base, token), HOME).catch((e: Error) => {
      throw new Error(`warm-up ${mode}: ${e.message}`);
    });
  }
  const base = (m: Mode) => servers.get(m)!.base;
  say(
    `Machine: ${os.cpus()[0]?.model} ×${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.release()}, Node ${process.version}; rounds alternate single/unix, medians of ${ROUNDS}`,
  );
  /** CPU seconds of a mode's server processes: the front end, and in unix mode the launcher and the worker too. */
  const workerPid = () =>
    Number(fs.readFileSync(path.join(tmp, 'data-unix', 'run', 'workers', `${USER}.pid`), 'utf8'));
  const launcherPid = (m: Mode) =>
    Number(
      fs
        .readFileSync(`/proc/${servers.get(m)!.child.pid}/task/${servers.get(m)!.child.pid}/children`, 'utf8')
        .trim()
        .split(' ')[0],
    );
  const serverCpu = (m: Mode) =>
    cpuOf(servers.get(m)!.child.pid!) + (m === 'unix' ? cpuOf(workerPid()) + cpuOf(launcherPid(m)) : 0);
  const cpuUsed: Record<string, Record<Mode | 'worker', number[]>> = {};
  const timed = async <T>(what: string, m: Mode, fn: () => Promise<T> | T): Promise<T> => {
    const c0 = serverCpu(m);
    const w0 = m === 'unix' ? cpuOf(workerPid()) : 0;
    const out = await fn();
    const used = (cpuUsed[what] ??= { single: [], unix: [], worker: [] });
    used[m].push(serverCpu(m) - c0);
    if (m === 'unix') used.worker.push(cpuOf(workerPid()) - w0);
    return out;
  };
  const cpuLine = (what: string) =>
    say(
      `  server CPU s per round (${what}): single ${f(cpuUsed[what]!.single, 2)}, unix front end + launcher + worker ${f(cpuUsed[what]!.unix, 2)}, of which the worker ${f(cpuUsed[what]!.worker, 2)}`,
    );
  const curl = (args: string[]) =>
    execFileSync('curl', ['-fsS', '-H', `token: ${token}`, ...args]).toString();
  const ratioLine = (
    what: string,
    unit: string,
    s: number[],
    u: number[],
    higherIsBetter: boolean,
    d = 0,
  ) => {
    const r = higherIsBetter ? median(u) / median(s) : median(s) / median(u);
    say(
      `${what}: single median ${median(s).toFixed(d)} ${unit} (${f(s, d)}), unix median ${median(u).toFixed(d)} ${unit} (${f(u, d)}); unix/single ${r.toFixed(2)} (bar ≥ 0.9) ${r >= 0.9 ? 'MET' : 'MISSED'}`,
    );
  };

  {
    // Upload: the browser's chunk protocol (1 MiB chunks, 3 in flight), a warm-up round per mode first.
    const src = path.join(tmp, 'upload.bin');
    writeRandomFile(src, UPLOAD);
    const speeds: Record<Mode, number[]> = { single: [], unix: [] };
    for (let round = 0; round <= ROUNDS; round++) {
      // Strictly alternating, never one mode twice in a row: an upload right after an upload of the same mode (the
      // A-B-B-A order the other sections use) cost up to twice the server CPU in this VM, and with the warm-up
      // round dropped that order gave unix mode more of those rounds than single mode (eighth session).
      for (const m of MODES) {
        // Each round from the same start: the last round's dirty pages written out, the caches dropped, the source
        // read back in (bench-kit `settle`), so that neither mode writes while the other's pages are flushed.
        settle(src);
        const name = `up-${m}-${round}.bin`;
        const t0 = process.hrtime.bigint();
        await timed('upload', m, () =>
          uploadChunked({
            base: base(m),
            token,
            file: src,
            size: UPLOAD,
            chunkSize: MiB,
            inFlight: 3,
            path: HOME,
            name,
          }),
        );
        const s = UPLOAD / MiB / secs(t0);
        const st = fs.statSync(path.join(home, name));
        if (st.size !== UPLOAD) throw new Error(`upload ${m}: ${st.size} bytes`);
        if (m === 'unix' && st.uid !== idOf(USER))
          throw new Error('the unix-mode upload is not owned by the user');
        fs.rmSync(path.join(home, name));
        if (round > 0) speeds[m].push(s);
      }
    }
    ratioLine(`Upload ${UPLOAD / MiB} MiB (chunked)`, 'MiB/s', speeds.single, speeds.unix, true);
    cpuLine('upload');
    // What the worker's heap flag (worker-client.ts WORKER_HEAP_FLAG) costs in memory: the worker's peak RSS.
    const status = fs.readFileSync(`/proc/${workerPid()}/status`, 'utf8');
    say(`  unix worker peak RSS after the uploads: ${/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? '?'} kB`);
    fs.rmSync(src);
  }

  {
    // Download of one file, warm page cache.
    const big = path.join(home, 'big.bin');
    writeRandomFile(big, DOWNLOAD);
    giveToUser(big);
    const speeds: Record<Mode, number[]> = { single: [], unix: [] };
    for (let round = 0; round <= ROUNDS; round++)
      for (const m of round % 2 ? [...MODES].reverse() : MODES) {
        const out = (
          await timed('download', m, () =>
            curl([
              '-o',
              '/dev/null',
              '-w',
              '%{speed_download} %{size_download}',
              `${base(m)}/download.action?path=${HOME}/big.bin`,
            ]),
          )
        ).split(' ');
        if (Number(out[1]) !== DOWNLOAD) throw new Error(`download ${m}: ${out[1]} bytes`);
        if (round > 0) speeds[m].push(Number(out[0]) / MiB);
      }
    ratioLine(`Download ${DOWNLOAD / MiB} MiB`, 'MiB/s', speeds.single, speeds.unix, true);
    cpuLine('download');
    fs.rmSync(big);
    // What a download costs before its first byte (the worker's stat, and in unix mode the hand-off of the
    // connection): a fixed cost that weighs on short transfers only.
    const small = path.join(home, 'small.bin');
    writeRandomFile(small, 64 * 1024);
    giveToUser(small);
    const firstByte: Record<Mode, number[]> = { single: [], unix: [] };
    for (let round = 0; round <= 10; round++)
      for (const m of round % 2 ? [...MODES].reverse() : MODES) {
        const t = curl([
          '-o',
          '/dev/null',
          '-w',
          '%{time_starttransfer}',
          `${base(m)}/download.action?path=${HOME}/small.bin`,
        ]);
        if (round > 0) firstByte[m].push(Number(t) * 1000);
      }
    say(
      `Download of 64 KiB, time to first byte: single median ${median(firstByte.single).toFixed(1)} ms, ` +
        `unix median ${median(firstByte.unix).toFixed(1)} ms (medians of 10)`,
    );
    fs.rmSync(small);
  }

  {
    // Zip of a folder of ZIP_FILES × 100 KB, streamed by the server (by the worker in unix mode).
    const dir = path.join(home, 'many');
    fs.mkdirSync(dir);
    const payload = Buffer.alloc(100 * 1000, 7);
    for (let i = 0; i < ZIP_FILES; i++) fs.writeFileSync(path.join(dir, `f${i}.dat`), payload);
    giveToUser(dir);
    const times: Record<Mode, number[]> = { single: [], unix: [] };
    for (let round = 0; round <= ROUNDS; round++)
      for (const m of round % 2 ? [...MODES].reverse() : MODES) {
        const t0 = process.hrtime.bigint();
        const got = await timed('zip', m, () =>
          curl(['-o', '/dev/null', '-w', '%{size_download}', `${base(m)}/download.action?path=${HOME}/many`]),
        );
        const s = secs(t0);
        if (Number(got) < ZIP_FILES * payload.length) throw new Error(`zip ${m} too short: ${got}`);
        if (round > 0) times[m].push((ZIP_FILES * payload.length) / MiB / s);
      }
    ratioLine(`Zip ${ZIP_FILES} × 100 KB`, 'MiB/s', times.single, times.unix, true);
    cpuLine('zip');
    fs.rmSync(dir, { recursive: true });
  }

  {
    // First page of a LIST_ENTRIES-entry folder: a folder per mode, each listed for the first time. Raw http.get on
    // a new connection per page (agent: false), not the typed client, as efile-bench.ts's listing timing.
    const firsts: Record<Mode, number> = { single: 0, unix: 0 };
    const again: Record<Mode, number[]> = { single: [], unix: [] };
    const page = (m: Mode, n: number) =>
      new Promise<number>((resolve, reject) => {
        const t = process.hrtime.bigint();
        http
          .get(
            `${base(m)}/list.action?path=${HOME}/list-${m}&pageNum=${n}&pageSize=20`,
            { agent: false, headers: { token } },
            (res) => {
              const parts: Buffer[] = [];
              res.on('data', (c: Buffer) => parts.push(c));
              res.on('end', () => {
                const body = JSON.parse(Buffer.concat(parts).toString()) as { code: string };
                if (body.code !== '0') reject(new Error(`list ${m} page ${n}: ${body.code}`));
                else resolve(ms(t));
              });
            },
          )
          .on('error', reject);
      });
    for (const m of MODES) {
      const ldir = path.join(home, `list-${m}`);
      fs.mkdirSync(ldir);
      for (let i = 0; i < LIST_ENTRIES; i++) fs.writeFileSync(path.join(ldir, `entry-${i}`), '');
      giveToUser(ldir);
    }
    for (const m of MODES) firsts[m] = await page(m, 1);
    for (let round = 0; round < ROUNDS; round++)
      for (const m of MODES) {
        await page(m, 500 + round); // another page in between: the first page is asked again, not served twice
        again[m].push(await page(m, 1));
      }
    for (const m of MODES)
      say(
        `List ${LIST_ENTRIES} entries, ${m}: first page ${firsts[m].toFixed(0)} ms (bar < 200 ${firsts[m] < 200 ? 'MET' : 'MISSED'}), first page again ${f(again[m])} ms`,
      );
    for (const m of MODES) fs.rmSync(path.join(home, `list-${m}`), { recursive: true });
  }

  {
    // A worker's cold start, in this process: launcher round trip, account check, socket, fork from the bundle,
    // identity set, ready; and the first call through a new worker, end to end.
    const { coldStarts, firstCall } = await timeColdStarts({
      root,
      user: USER,
      home: HOME,
      dataDir: path.join(tmp, 'data-cold'),
      starts: 5,
    });
    say(
      `Worker cold start (launcher to ready) ${f(coldStarts)} ms, median ${median(coldStarts).toFixed(0)} ms; first call through a new worker ${f(firstCall)} ms`,
    );
  }

  for (const server of servers.values()) await server.stop();
  portal.close();
  fs.writeFileSync(path.join(here, 'last-unix-run.txt'), results.join('\n') + '\n');
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const { child } of servers.values()) child.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
    removeUsers([USER]);
  });
