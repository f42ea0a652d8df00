/**
 * The fast-transfer client alone in its own process, for the memory bar (issue 11 §5): bundled by run.ts with
 * esbuild and started with plain `node` (no tsx loader in the figure), it downloads one remote folder with the
 * client's runner and prints its kernel-measured peak RSS (VmHWM) and the time as one JSON line.
 * Environment: BENCH_BASE, BENCH_TOKEN, BENCH_REMOTE, BENCH_LOCAL, BENCH_CFG.
 */
import fs from 'node:fs';
import { FastransTaskState as S } from '@hpc/contracts';
import { Runner } from '../../apps/fastrans/src/transfer/runner';
import { Remote } from '../../apps/fastrans/src/transfer/remote';
import { HistoryStore } from '../../apps/fastrans/src/store/history';

const env = (k: string) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} missing`);
  return v;
};
const kb = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);

async function main() {
  const runner = new Runner({
    store: new HistoryStore(env('BENCH_CFG')),
    emit: () => undefined,
    log: (m) => console.error(m),
  });
  runner.setRemote(new Remote([env('BENCH_BASE')], env('BENCH_TOKEN')));
  // Where the memory is: the JS heap (live objects and garbage not yet collected) and buffers outside it.
  let heap = 0;
  let buffers = 0;
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    buffers = Math.max(buffers, m.arrayBuffers);
  }, 200);
  const t0 = process.hrtime.bigint();
  const task = await runner.addDownload([env('BENCH_REMOTE')], env('BENCH_LOCAL'));
  const listed = Number(process.hrtime.bigint() - t0) / 1e9;
  const end = await runner.waitFor(task.task_id);
  await runner.close();
  clearInterval(sample);
  console.log(
    JSON.stringify({
      ok: end.state === S.successful,
      error: end.error,
      files: end.files,
      count: end.count,
      listed,
      secs: Number(process.hrtime.bigint() - t0) / 1e9,
      peakRssMB: kb('VmHWM') / 1024,
      peakHeapMB: heap / 2 ** 20,
      peakBuffersMB: buffers / 2 ** 20,
    }),
  );
}
main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
