/**
 * Where small files' time goes (issue 24): the client's runner (this process) and efile (its own process) move
 * SMALL_FILES (10,000) files of SMALL_SIZE (10 KB) in 20 folders up and back, SMALL_ROUNDS (1) times, and print the
 * wall time and each side's CPU seconds (efile's with its workers in unix mode). SMALL_PROFILE=<dir> writes CPU
 * profiles there: efile's (its whole run) and the client's, one per transfer (`client-upload-<round>.cpuprofile`). No peers: bench/fastrans/peers.ts compares with rsync; this is the quick loop
 * for changing the per-file path, the figures of a change read from CPU seconds of runs that alternate.
 *
 * Run: `node --import tsx bench/fastrans/small-cpu.ts` (FASTRANS_BENCH_MODE=unix, as root, for unix mode; SMALL_COLD=1,
 * as root, drops the page cache before each transfer as peers.ts does; SMALL_LINK=1 goes through peers.ts's long link).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { secs, settle, threadCpu, treeCpu } from '../bench-kit';
import { longLink } from '../long-link';
import { benchMode, smallFiles, startFastransBench, transfer } from './setup';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const N = env('SMALL_FILES', 10_000);
const SIZE = env('SMALL_SIZE', 10 * 1024);
const PROFILE = process.env.SMALL_PROFILE;
/** SMALL_COLD=1: the page cache dropped before each transfer, as peers.ts does (root only). */
const COLD = process.env.SMALL_COLD === '1';
const bench = await startFastransBench({ mode: benchMode(), profileDir: PROFILE });

/** Runs `work` under the client's CPU profiler when SMALL_PROFILE is set (the transfer only, not the setup). */
async function profiled(name: string, work: () => Promise<void>) {
  if (!PROFILE) return work();
  const s = new Session();
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.start');
  try {
    await work();
  } finally {
    const { profile } = await s.post('Profiler.stop');
    fs.writeFileSync(path.join(PROFILE, `client-${name}.cpuprofile`), JSON.stringify(profile));
    s.disconnect();
  }
}
/**
 * Where a process's CPU went between two `threadCpu` readings, by thread: the main thread, then the others summed by
 * name (libuv's pool, V8's helpers; worker_threads threads carry the name of the thread that started them).
 */
function split(pid: number, before: ReturnType<typeof threadCpu>): string {
  const by = new Map<string, { cpu: number; sys: number }>();
  for (const [tid, t] of threadCpu(pid)) {
    const name = tid === pid ? 'main' : t.name;
    const b = by.get(name) ?? { cpu: 0, sys: 0 };
    by.set(name, {
      cpu: b.cpu + t.cpu - (before.get(tid)?.cpu ?? 0),
      sys: b.sys + t.sys - (before.get(tid)?.sys ?? 0),
    });
  }
  return [...by]
    .filter(([, c]) => c.cpu >= 0.01)
    .map(([n, c]) => `${n} ${c.cpu.toFixed(2)} (system ${c.sys.toFixed(2)})`)
    .join(', ');
}
try {
  // SMALL_LINK=1: through the long link of peers.ts (20 ms each way, 2 MiB in flight per connection and direction).
  const link =
    process.env.SMALL_LINK === '1'
      ? await longLink({ host: '127.0.0.1', port: Number(new URL(bench.base).port) }, 20, 2 * 1024 * 1024)
      : null;
  const runner = bench.runnerAt([link ? `http://127.0.0.1:${link.port}` : bench.base], 'cfg');
  const dir = path.join(bench.tmp, 'many');
  smallFiles(dir, N, SIZE);
  const efile = bench.server.child.pid!;
  const cpu = (c: NodeJS.CpuUsage) => ((c.user + c.system) / 1e6).toFixed(2);
  for (let r = 0; r < env('SMALL_ROUNDS', 1); r++) {
    if (COLD) settle();
    let [e0, m0] = [threadCpu(efile), threadCpu(process.pid)];
    let s0 = treeCpu(efile);
    let c0 = process.cpuUsage();
    let t0 = process.hrtime.bigint();
    await profiled(`upload-${r}`, () =>
      transfer(runner, () => runner.addUpload(dir, `${bench.HOME}/up${r}`)),
    );
    console.log(
      `upload of ${N} × ${SIZE} B: ${secs(t0).toFixed(2)} s; CPU s client ${cpu(process.cpuUsage(c0))}, efile ${(treeCpu(efile) - s0).toFixed(2)}`,
    );
    console.log(`  efile: ${split(efile, e0)}; client: ${split(process.pid, m0)}`);
    if (COLD) settle();
    [e0, m0] = [threadCpu(efile), threadCpu(process.pid)];
    [s0, c0, t0] = [treeCpu(efile), process.cpuUsage(), process.hrtime.bigint()];
    await profiled(`download-${r}`, () =>
      transfer(runner, () => runner.addDownload([`${bench.HOME}/up${r}`], path.join(bench.tmp, `down${r}`))),
    );
    console.log(
      `download of the same: ${secs(t0).toFixed(2)} s; CPU s client ${cpu(process.cpuUsage(c0))}, efile ${(treeCpu(efile) - s0).toFixed(2)}`,
    );
    console.log(`  efile: ${split(efile, e0)}; client: ${split(process.pid, m0)}`);
  }
} finally {
  bench.close();
}
process.exit(0);
