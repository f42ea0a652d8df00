/**
 * Where small files' time goes (issue 24): the client's runner (this process) and efile (its own process) move
 * SMALL_FILES (10,000) files of SMALL_SIZE (10 KB) in 20 folders up and back, SMALL_ROUNDS (1) times, and print the
 * wall time and each side's CPU seconds (efile's with its workers in unix mode). SMALL_PROFILE=<dir> writes efile's CPU profile there (run this script with
 * `node --cpu-prof` for the client's). No peers: bench/fastrans/peers.ts compares with rsync; this is the quick loop
 * for changing the per-file path, the figures of a change read from CPU seconds of runs that alternate.
 *
 * Run: `node --import tsx bench/fastrans/small-cpu.ts` (FASTRANS_BENCH_MODE=unix, as root, for unix mode).
 */
import path from 'node:path';
import { secs, treeCpu } from '../bench-kit';
import { benchMode, smallFiles, startFastransBench, transfer } from './setup';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const N = env('SMALL_FILES', 10_000);
const SIZE = env('SMALL_SIZE', 10 * 1024);
const bench = await startFastransBench({ mode: benchMode(), profileDir: process.env.SMALL_PROFILE });
try {
  const runner = bench.runnerAt([bench.base], 'cfg');
  const dir = path.join(bench.tmp, 'many');
  smallFiles(dir, N, SIZE);
  const efile = bench.server.child.pid!;
  const cpu = (c: NodeJS.CpuUsage) => ((c.user + c.system) / 1e6).toFixed(2);
  for (let r = 0; r < env('SMALL_ROUNDS', 1); r++) {
    let s0 = treeCpu(efile);
    let c0 = process.cpuUsage();
    let t0 = process.hrtime.bigint();
    await transfer(runner, () => runner.addUpload(dir, `${bench.HOME}/up${r}`));
    console.log(
      `upload of ${N} × ${SIZE} B: ${secs(t0).toFixed(2)} s; CPU s client ${cpu(process.cpuUsage(c0))}, efile ${(treeCpu(efile) - s0).toFixed(2)}`,
    );
    [s0, c0, t0] = [treeCpu(efile), process.cpuUsage(), process.hrtime.bigint()];
    await transfer(runner, () => runner.addDownload([`${bench.HOME}/up${r}`], path.join(bench.tmp, `down${r}`)));
    console.log(
      `download of the same: ${secs(t0).toFixed(2)} s; CPU s client ${cpu(process.cpuUsage(c0))}, efile ${(treeCpu(efile) - s0).toFixed(2)}`,
    );
  }
} finally {
  bench.close();
}
process.exit(0);
