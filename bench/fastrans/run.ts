/**
 * Fast-transfer benchmarks, side by side in one run (issue 11 §5). Not a test: figures go to docs/PERFORMANCE.md
 * "## Fast transfer". Run: `node --import tsx bench/fastrans/run.ts`. The efile server runs as operators run it (the
 * esbuild bundle, its own process); the client's runner runs in this process, as the client would.
 * FASTRANS_BENCH_MIB (default 4096), FASTRANS_BENCH_FILES (10,000 files of 10 KB) and FASTRANS_BENCH_ENTRIES
 * (1,000,000) scale it down for a quick look; FASTRANS_BENCH_ROUNDS (3) sets the large file's alternating rounds;
 * FASTRANS_BENCH_ONLY=large,small,memory runs some sections.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { uploadChunked } from '../efile/chunk-client';
import { idOf } from '../../test-support/unix-users';
import { benchMode, runFastransBench, smallFiles, startFastransBench, transfer } from './setup';
import { MiB, cpuOf, median, reporter, secs, settle, writeRandomFile } from '../bench-kit';

const here = path.dirname(fileURLToPath(import.meta.url));
const LARGE = Number(process.env.FASTRANS_BENCH_MIB ?? 4096) * MiB;
const FILES = Number(process.env.FASTRANS_BENCH_FILES ?? 10_000);
const ENTRIES = Number(process.env.FASTRANS_BENCH_ENTRIES ?? 1_000_000);
const LARGE_ROUNDS = Number(process.env.FASTRANS_BENCH_ROUNDS ?? 3);
const ONLY = process.env.FASTRANS_BENCH_ONLY?.split(',');
const PROFILE = process.env.FASTRANS_BENCH_PROFILE;
const run = (s: string) => !ONLY || ONLY.includes(s);
const bench = await startFastransBench({ mode: benchMode(), profileDir: PROFILE });
const { tmp, HOME, home, token, base, server } = bench;
const MODE = benchMode();
const USER = bench.user;
const { say } = reporter();

async function main() {
  const efile = bench.efile;
  say(`machine: ${bench.machine}`);
  const runner = bench.runnerAt([base], 'cfg');

  if (run('large')) {
    const src = path.join(tmp, 'large.bin');
    writeRandomFile(src, LARGE);
    const cmd = { data: await efile.linuxUpload(HOME) };
    // CPU seconds (user + system) the server spent on each transfer, and this process (the client's runner) on its
    // own: on 2 shared cores the ratio follows the CPU each way needs per byte more than the disk.
    const serverCpu = () => cpuOf(server.child.pid!);
    const rounds: { curl: number; client: number; curlCpu: number; clientCpu: number; runnerCpu: number }[] =
      [];
    // Alternating rounds, each transfer from the same memory state (settle: flushed, cache dropped, source read
    // back); the figures are the rounds' medians.
    for (let r = 0; r < LARGE_ROUNDS; r++) {
      settle(src);
      let s0 = serverCpu();
      let t0 = process.hrtime.bigint();
      // Not execFileSync: the stand-in portal in this process answers the PUT's owner-rights check.
      await promisify(execFile)('curl', ['-fsS', '-o', '/dev/null', '-T', src, `${cmd.data.url}curl.bin`]);
      const curl = secs(t0);
      const curlCpu = serverCpu() - s0;
      fs.rmSync(path.join(home, 'curl.bin'));
      settle(src);
      s0 = serverCpu();
      const c0 = process.cpuUsage();
      t0 = process.hrtime.bigint();
      await transfer(runner, () => runner.addUpload(src, `${HOME}/client${r}`));
      const client = secs(t0);
      const c = process.cpuUsage(c0);
      rounds.push({
        curl,
        client,
        curlCpu,
        clientCpu: serverCpu() - s0,
        runnerCpu: (c.user + c.system) / 1e6,
      });
      fs.rmSync(path.join(home, `client${r}`), { recursive: true });
      say(
        `  round ${r + 1}: curl ${curl.toFixed(1)} s, client ${client.toFixed(1)} s = ${(curl / client).toFixed(2)}×`,
      );
    }
    const m = (k: keyof (typeof rounds)[number]) => median(rounds.map((x) => x[k]));
    const mibs = (s: number) => (LARGE / MiB / s).toFixed(0);
    say(
      `large file ${LARGE / MiB} MiB, median of ${rounds.length} alternating rounds: curl -T ${m('curl').toFixed(1)} s (${mibs(m('curl'))} MiB/s), client ${m('client').toFixed(1)} s (${mibs(m('client'))} MiB/s, ranges each SHA-256-checked as written, hash-list finalize) = ${(m('curl') / m('client')).toFixed(2)}× curl (bar ≥ 0.8); CPU s: server ${m('curlCpu').toFixed(1)} for curl, ${m('clientCpu').toFixed(1)} for the client, client's runner ${m('runnerCpu').toFixed(1)}`,
    );
    fs.rmSync(src);
  }

  if (run('small')) {
    const dir = path.join(tmp, 'small');
    const size = 10 * 1024;
    smallFiles(dir, FILES, size, 1);
    let t0 = process.hrtime.bigint();
    await transfer(runner, () => runner.addUpload(dir, HOME));
    const client = secs(t0);
    // The browser's way: one chunk upload per file (test GET + multipart POST), 3 files at once (spec §9).
    fs.mkdirSync(path.join(home, 'browser'));
    if (MODE === 'unix') fs.chownSync(path.join(home, 'browser'), idOf(USER), idOf(USER));
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
            size,
            chunkSize: MiB,
            path: `${HOME}/browser`,
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
    // ENTRIES empty files in folders of 1,000, made by this script in parallel (64 creates in flight).
    const dir = path.join(home, 'many');
    fs.mkdirSync(dir);
    let t0 = process.hrtime.bigint();
    const dirs = Math.ceil(ENTRIES / 1000);
    for (let d = 0; d < dirs; d++) fs.mkdirSync(path.join(dir, `d${d}`));
    let made = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        for (let i = made++; i < ENTRIES; i = made++)
          await fs.promises.writeFile(path.join(dir, `d${Math.floor(i / 1000)}`, `f${i % 1000}`), '');
      }),
    );
    say(`made ${ENTRIES} empty files in ${dirs} folders in ${secs(t0).toFixed(1)} s`);
    // The client alone in its own process, bundled and run with plain node, so that its peak RSS is its own.
    const child = path.join(tmp, 'client-child.cjs');
    await (
      await import('esbuild')
    ).build({
      entryPoints: [path.join(here, 'client-child.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: child,
      logLevel: 'warning',
    });
    t0 = process.hrtime.bigint();
    const out = await promisify(execFile)(process.execPath, [child], {
      maxBuffer: 64 * MiB,
      env: {
        ...process.env,
        BENCH_BASE: base,
        BENCH_TOKEN: token,
        BENCH_REMOTE: `${HOME}/many`,
        BENCH_LOCAL: path.join(tmp, 'down'),
        BENCH_CFG: path.join(tmp, 'cfg-child'),
      },
    });
    const r = JSON.parse(out.stdout.trim().split('\n').pop()!) as {
      ok: boolean;
      error: string | null;
      files: number;
      count: number;
      listed: number;
      secs: number;
      peakRssMB: number;
      peakHeapMB: number;
      peakBuffersMB: number;
    };
    if (!r.ok || r.count !== ENTRIES) throw new Error(`download: ${JSON.stringify(r)}`);
    say(
      `download of a ${ENTRIES}-entry folder (${dirs} folders): ${r.secs.toFixed(1)} s (manifest to the list file ${r.listed.toFixed(1)} s), client peak RSS ${r.peakRssMB.toFixed(0)} MB (VmHWM of the client process; bar < 300 MB; peak JS heap ${r.peakHeapMB.toFixed(0)} MB, buffers ${r.peakBuffersMB.toFixed(0)} MB)`,
    );
  }
  await runner.close();
}

runFastransBench(main, bench);
