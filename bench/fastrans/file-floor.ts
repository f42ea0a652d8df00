/**
 * The floor under a small-file transfer on this machine (issue 24 §1): what creating N files costs the kernel alone,
 * with and without the durability fast transfer promises, beside rsync doing the same on the same disk. No network,
 * no HTTP, no hashing: only the file-system calls each tool makes per file, in alternating rounds.
 *
 * - `rsync -a` local: rsync's own receiver (temp name, write, close, rename; no fsync);
 * - `create, rename`: the same calls from one thread, synchronously (what rsync does, without its processes);
 * - `durable store`: efile's store of a small file (transfer-ops `storeSmall`): create, write, fdatasync, close, link,
 *   unlink, 16 at once through the thread pool, as efile runs them;
 * - `store without fdatasync`: the same without the fdatasync, to read what durability itself costs.
 *
 * Run: `node --import tsx bench/fastrans/file-floor.ts` (FLOOR_FILES 10,000, FLOOR_SIZE 10240, FLOOR_ROUNDS 3).
 * Not a test: figures go to docs/PERFORMANCE.md.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { median, reporter, secs } from '../bench-kit';
import { smallFiles } from './setup';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const N = env('FLOOR_FILES', 10_000);
const SIZE = env('FLOOR_SIZE', 10 * 1024);
const ROUNDS = env('FLOOR_ROUNDS', 3);
const FOLDERS = 20;
const { say } = reporter();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'file-floor-'));
const src = path.join(tmp, 'src');
smallFiles(src, N, SIZE);
const data = Buffer.alloc(SIZE, 7);
const { O_CREAT, O_EXCL, O_WRONLY } = fs.constants;
const p = {
  open: promisify(fs.open),
  write: promisify(fs.write),
  fdatasync: promisify(fs.fdatasync),
  close: promisify(fs.close),
  link: promisify(fs.link),
  unlink: promisify(fs.unlink),
};

function folders(dst: string) {
  for (let d = 0; d < FOLDERS; d++) fs.mkdirSync(path.join(dst, String(d)), { recursive: true });
}

async function store(dst: string, durable: boolean) {
  folders(dst);
  let next = 0;
  const lane = async () => {
    while (next < N) {
      const i = next++;
      const to = path.join(dst, String(i % FOLDERS), `f${i}`);
      const fd = await p.open(`${to}.part`, O_CREAT | O_EXCL | O_WRONLY, 0o644);
      await p.write(fd, data);
      if (durable) await p.fdatasync(fd);
      await p.close(fd);
      await p.link(`${to}.part`, to);
      await p.unlink(`${to}.part`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
}

/**
 * A batch's files (500, the client's batch) written from one thread with synchronous calls, their fdatasyncs then
 * issued together through the thread pool (the journal commits many at once), then named in one synchronous pass:
 * the design PERFORMANCE.md proposed on 2026-11-29.
 */
async function batched(dst: string, durable: boolean | 'syncfs') {
  folders(dst);
  const BATCH = 500;
  for (let b = 0; b < N; b += BATCH) {
    const fds: number[] = [];
    const names: string[] = [];
    for (let i = b; i < Math.min(N, b + BATCH); i++) {
      const to = path.join(dst, String(i % FOLDERS), `f${i}`);
      const fd = fs.openSync(`${to}.part`, O_CREAT | O_EXCL | O_WRONLY, 0o644);
      fs.writeSync(fd, data);
      fds.push(fd);
      names.push(to);
    }
    if (durable === 'syncfs') execFileSync('sync', ['-f', dst]);
    else if (durable) await Promise.all(fds.map((fd) => p.fdatasync(fd)));
    for (let k = 0; k < fds.length; k++) {
      fs.closeSync(fds[k]!);
      fs.linkSync(`${names[k]}.part`, names[k]!);
      fs.unlinkSync(`${names[k]}.part`);
    }
  }
}

const ways: Record<string, (dst: string) => Promise<void> | void> = {
  'rsync -a (local)': (dst) => void execFileSync('rsync', ['-a', `${src}/`, `${dst}/`]),
  'create, rename (one thread)': (dst) => {
    folders(dst);
    for (let i = 0; i < N; i++) {
      const to = path.join(dst, String(i % FOLDERS), `f${i}`);
      const fd = fs.openSync(`${to}.part`, O_CREAT | O_EXCL | O_WRONLY, 0o644);
      fs.writeSync(fd, data);
      fs.closeSync(fd);
      fs.renameSync(`${to}.part`, to);
    }
  },
  'durable store (efile)': (dst) => store(dst, true),
  'store without fdatasync': (dst) => store(dst, false),
  'batch: one thread, fdatasyncs together': (dst) => batched(dst, true),
  'batch without fdatasync': (dst) => batched(dst, false),
  'batch, one syncfs': (dst) => batched(dst, 'syncfs'),
};

const times: Record<string, number[]> = {};
try {
  say(`${N} files of ${SIZE} B in ${FOLDERS} folders; ${os.cpus()[0]?.model} ×${os.cpus().length}`);
  for (let r = 0; r < ROUNDS; r++) {
    const line: string[] = [];
    for (const [name, run] of Object.entries(ways)) {
      const dst = path.join(tmp, `dst-${r}-${line.length}`);
      execFileSync('sync');
      const t0 = process.hrtime.bigint();
      await run(dst);
      const t = secs(t0);
      (times[name] ??= []).push(t);
      line.push(`${name} ${t.toFixed(2)} s`);
      // Kept to the end: removing 10,000 files here would slow the next way's creates (see peers.ts `compare`).
    }
    say(`  round ${r + 1}: ${line.join(', ')}`);
  }
  const rsync = median(times['rsync -a (local)']!);
  for (const [name, ts] of Object.entries(times))
    say(`${name}: median ${median(ts).toFixed(2)} s (${(rsync / median(ts)).toFixed(2)}× rsync)`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
