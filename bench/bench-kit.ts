/**
 * What every bench measures with: elapsed time, CPU seconds of a process, medians, a report line that carries the
 * machine's load (every figure is read beside it: the machines are shared), a large file to move, and the result
 * line of a load generator.
 */
import fs from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import type { Result } from 'autocannon';

export const MiB = 1024 * 1024;

/** Seconds / milliseconds since `t0` (`process.hrtime.bigint()`). */
export const secs = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
export const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU seconds (user + system, all threads) a process has used so far: steadier than wall time on shared cores. */
export const cpuOf = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** CPU seconds of a process and every process below it (efile's launcher and the user's workers in unix mode). */
export function treeCpu(pid: number): number {
  const kids = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      /* gone */
    }
  }
  let sum = 0;
  const walk = (p: number) => {
    try {
      sum += cpuOf(p);
    } catch {
      /* gone */
    }
    for (const k of kids.get(p) ?? []) walk(k);
  };
  walk(pid);
  return sum;
}

/**
 * CPU seconds of each thread of `pid` (user + system, and system alone, from /proc/<pid>/task), by thread id, with its name: the main
 * thread is the one whose id is the pid; Node names its own threads (libuv's pool, V8's helpers) in `comm`.
 */
export function threadCpu(pid: number): Map<number, { name: string; cpu: number; sys: number }> {
  const out = new Map<number, { name: string; cpu: number; sys: number }>();
  const tick = 100; // USER_HZ on Linux
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const f = stat.split(') ')[1]!.split(' ');
      out.set(Number(t), {
        name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        cpu: (Number(f[11]) + Number(f[12])) / tick,
        sys: Number(f[12]) / tick,
      });
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Prints a result line with the 1-minute load average and keeps it for the bench's summary file. */
export function reporter() {
  const lines: string[] = [];
  const say = (s: string) => {
    const line = `${s} [load ${os.loadavg()[0]!.toFixed(1)}]`;
    console.log(line);
    lines.push(line);
  };
  return { say, lines };
}

/** A file of `size` bytes that no layer can compress or deduplicate (each 4 KiB page is numbered). */
export function writeRandomFile(file: string, size: number) {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(4 * MiB);
  for (let off = 0; off < size; off += block.length) {
    for (let i = 0; i < block.length; i += 4096) block.writeUInt32LE((off + i) >>> 0, i);
    fs.writeSync(fd, block, 0, Math.min(block.length, size - off));
  }
  fs.closeSync(fd);
}

/**
 * Puts the machine in the same memory state before each transfer of a comparison: dirty pages flushed, the page
 * cache dropped (as root; otherwise only the flush) and `warm` read back into it. Without this, whichever transfer
 * runs second meets the first one's write-back and a page cache to reclaim: the same curl PUT of 4 GiB took 4.6 s
 * in one run and 15 s in the next (server CPU 3.8 s against 15.9 s), which no code change explains.
 */
export function settle(warm?: string): void {
  execFileSync('sync');
  try {
    fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
  } catch {
    // Not root: the flush alone.
  }
  if (warm) {
    const fd = fs.openSync(warm, 'r');
    const buf = Buffer.allocUnsafe(4 * MiB);
    while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
    fs.closeSync(fd);
  }
}

/** What a load generator reports of an autocannon run: one JSON line its bench reads. */
export const loadSummary = (result: Result) => ({
  rps: result.requests.average,
  total: result.requests.total,
  p50: result.latency.p50,
  p90: result.latency.p90,
  p99: result.latency.p99,
  max: result.latency.max,
  non2xx: result.non2xx,
  errors: result.errors,
});
