import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FastransTaskState as S,
  TarWriter,
  tarFiles,
  type TransferFileRef,
  type TransferFileStatus,
} from '@hpc/contracts';
import { DEFAULT_LIMITS, type EngineLimits, type TaskModel } from '../engine/task';
import { HistoryStore } from '../store/history';
import type { Remote } from './remote';
import { Runner } from './runner';
import { RangeBuffers } from './local';

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const MANIFEST = '.fastrans-manifest.json';

/**
 * efile's upload calls in memory, as the runner sees them: partial files by id written at offsets, each range
 * checked against its SHA-256 and recorded with it, a finalize that checks the hash list of the recorded digests (or,
 * as a server before range checks (`legacy`), the SHA-256 of the whole file), tar batches checked against their
 * manifest, and the status call of a restarted client.
 */
class FakeEfile {
  constructor(readonly legacy = false) {}
  failures = 0;
  final = new Map<string, Buffer>();
  partial = new Map<
    string,
    { path: string; buf: Buffer; rangeSize: number; stored: Set<number>; digests: Map<number, string> }
  >();
  calls = { status: 0, begin: 0, batch: 0, range: 0, byList: 0, bySha: 0 };
  private get checks() {
    return this.legacy ? {} : { rangeChecks: true };
  }
  /** Answers held back (a client stopped with work in flight): resolved never. */
  hold = false;
  private held<T>(v: T): Promise<T> {
    return this.hold ? new Promise<T>(() => undefined) : Promise.resolve(v);
  }
  private idOf(f: TransferFileRef) {
    return sha(Buffer.from(`${f.path}\0${f.identifier}\0${f.size}`)).slice(0, 40);
  }
  begin(files: TransferFileRef[], rangeSize: number) {
    this.calls.begin++;
    return this.held(
      files.map((f): TransferFileStatus => {
        const id = this.idOf(f);
        if (this.final.has(f.path))
          return { path: f.path, id, done: true, ranges: [], rangeSize, ...this.checks };
        if (!this.partial.has(id))
          this.partial.set(id, {
            path: f.path,
            buf: Buffer.alloc(f.size),
            rangeSize,
            stored: new Set(),
            digests: new Map(),
          });
        const ranges = [...this.partial.get(id)!.stored];
        return { path: f.path, id, done: false, ranges, rangeSize, ...this.checks };
      }),
    );
  }
  status(files: TransferFileRef[]) {
    this.calls.status++;
    return Promise.resolve(
      files.map((f): TransferFileStatus => {
        const id = this.idOf(f);
        const p = this.partial.get(id);
        if (this.final.has(f.path))
          return { path: f.path, id, done: true, ranges: [], rangeSize: 0, ...this.checks };
        return {
          path: f.path,
          id,
          done: false,
          ranges: p ? [...p.stored] : [],
          rangeSize: p?.rangeSize ?? 0,
          ...this.checks,
        };
      }),
    );
  }
  range(id: string, n: number, data: Buffer, digest?: string) {
    this.calls.range++;
    const p = this.partial.get(id)!;
    if (!this.legacy && digest !== sha(data)) throw new Error('range checksum');
    data.copy(p.buf, n * p.rangeSize);
    p.stored.add(n);
    p.digests.set(n, sha(data));
    return this.held({ stored: p.stored.size, total: 0 });
  }
  finalize(id: string, digest: { sha256?: string; rangesSha256?: string }) {
    const p = this.partial.get(id)!;
    if (this.legacy || !digest.rangesSha256) {
      this.calls.bySha++;
      if (sha(p.buf) !== digest.sha256) throw new Error('checksum');
    } else {
      this.calls.byList++;
      const count = Math.max(1, Math.ceil(p.buf.length / p.rangeSize));
      const list = Array.from({ length: count }, (_, n) => Buffer.from(p.digests.get(n)!, 'hex'));
      if (sha(Buffer.concat(list)) !== digest.rangesSha256) throw new Error('checksum');
    }
    this.final.set(p.path, p.buf);
    this.partial.delete(id);
    return this.held({ path: p.path, size: p.buf.length });
  }
  async batch(base: string, tar: Buffer) {
    this.calls.batch++;
    const entries = tarFiles(tar).map((e) => ({ name: e.name, data: Buffer.from(e.data) }));
    const m = JSON.parse(entries.find((e) => e.name === MANIFEST)!.data.toString()) as {
      files: Record<string, { sha256: string }>;
    };
    const stored: string[] = [];
    for (const e of entries) {
      if (e.name === MANIFEST) continue;
      if (m.files[e.name]?.sha256 !== sha(e.data)) continue;
      this.final.set(`${base}/${e.name}`, e.data);
      stored.push(e.name);
    }
    return this.held({ stored, failed: [] });
  }
  cancel() {
    return Promise.resolve({ cancelled: 0 });
  }
}

/**
 * efile's download calls in memory: the manifest of `files` (the folder `proj` of `/home/u`, then its files), which
 * stops after `gateAfter` files until `open()` (never, unless called), and batches read as efile answers them (a tar
 * with the SHA-256 of every file first).
 */
class ListingEfile {
  asked: string[] = [];
  askedWhileListing = 0;
  listing = false;
  open!: () => void;
  private readonly gate = new Promise<void>((r) => (this.open = r));
  constructor(
    readonly files: Map<string, Buffer>,
    readonly gateAfter = Infinity,
    /** A folder listed after the files. */
    readonly lastFolder?: string,
  ) {}
  async manifest(
    _paths: string[],
    onEntry: (e: { rel: string; size: number; dir?: boolean }) => Promise<void>,
  ) {
    this.listing = true;
    await onEntry({ rel: 'proj', size: 0, dir: true });
    let n = 0;
    for (const [rel, data] of this.files) {
      if (n++ === this.gateAfter) await this.gate;
      await onEntry({ rel, size: data.length });
    }
    if (this.lastFolder) await onEntry({ rel: this.lastFolder, size: 0, dir: true });
    this.listing = false;
  }
  readBatch(paths: string[]) {
    this.asked.push(...paths);
    if (this.listing) this.askedWhileListing++;
    const w = new TarWriter();
    const sums: Record<string, { sha256: string }> = {};
    for (const p of paths) sums[p] = { sha256: sha(this.files.get(p.slice('/home/u/'.length))!) };
    const manifest = Buffer.from(JSON.stringify({ files: sums, failed: {} }));
    const at = [
      w.add(MANIFEST, manifest.length),
      ...paths.map((p) => w.add(p.slice(1), this.files.get(p.slice(8))!.length)),
    ];
    const tar = Buffer.from(w.build());
    manifest.copy(tar, at[0]);
    paths.forEach((p, i) => this.files.get(p.slice(8))!.copy(tar, at[i + 1]));
    return Promise.resolve(tar);
  }
}

/** `n` small files of the remote folder `proj` (kept under the batch limit of the test's engine). */
const remoteFiles = (n: number) =>
  new Map(Array.from({ length: n }, (_, i) => [`proj/f${i}`, crypto.randomBytes(20 + (i % 50))] as const));

/**
 * A download of 1,200 remote files whose manifest stops after `gateAfter` of them, into `<dir>/down`: answered once
 * `asked` files were asked for.
 */
async function startDownload(gateAfter: number, asked: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-runner-'));
  dirs.push(dir);
  const files = remoteFiles(1200);
  const efile = new ListingEfile(files, gateAfter);
  const runner = runnerIn(dir);
  runner.setRemote(efile as unknown as Remote);
  const task = await runner.addDownload(['/home/u/proj'], path.join(dir, 'down'));
  while (efile.asked.length < asked) await new Promise((r) => setTimeout(r, 5));
  return { dir, files, efile, runner, task };
}

const expectDownloaded = (dir: string, files: Map<string, Buffer>) => {
  for (const [rel, data] of files)
    expect(fs.readFileSync(path.join(dir, 'down', rel)).equals(data), rel).toBe(true);
};

const dirs: string[] = [];
afterEach(() => {
  // The runner saves its history in the background: a save landing during the removal made rmdir fail with
  // ENOTEMPTY (twice in full runs). Each test awaits its runner's close, which resolves once the last save is written;
  // rmSync's retries (of the rmdir only, not of the folder's entries) stay for anything else.
  for (const d of dirs.splice(0))
    fs.rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

/** A window of 4 files: a task of 40 is fed ten times from its list file, whatever else happens. */
const LIMITS: EngineLimits = {
  ...DEFAULT_LIMITS,
  window: 4,
  smallFile: 1000,
  rangeSize: 512,
  batchFiles: 2,
  backoffBaseMs: 1,
};

function folder() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-runner-'));
  dirs.push(dir);
  const src = path.join(dir, 'proj');
  fs.mkdirSync(path.join(src, 'sub'), { recursive: true });
  const files = new Map<string, Buffer>();
  for (let i = 0; i < 40; i++) {
    const rel = `proj/${i % 3 ? 'sub/' : ''}f${i}`;
    const data = crypto.randomBytes(i % 10 === 0 ? 2000 + i : 10 + i); // every tenth is sent in ranges
    fs.writeFileSync(path.join(dir, rel), data);
    files.set(rel, data);
  }
  return { dir, src, files };
}

/** A runner that keeps its history under `dir`, with the test's limits, emitting and logging nothing. */
const runnerIn = (dir: string) =>
  new Runner({
    store: new HistoryStore(path.join(dir, 'cfg')),
    limits: LIMITS,
    emit: () => undefined,
    log: () => undefined,
  });

const saved = (dir: string): TaskModel[] =>
  fs
    .readdirSync(path.join(dir, 'cfg/tasks'))
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(fs.readFileSync(path.join(dir, 'cfg/tasks', n), 'utf8')) as TaskModel);

describe('runner', () => {
  it.each([
    ['checks ranges', false],
    ['wants the whole SHA-256 (older)', true],
  ])(
    'feeds a task larger than its window from the list file, server %s: every file exact',
    async (_, legacy) => {
      const { dir, src, files } = folder();
      const efile = new FakeEfile(legacy);
      const runner = runnerIn(dir);
      runner.setRemote(efile as unknown as Remote);
      const task = await runner.addUpload(src, '/home/u');
      const end = await runner.waitFor(task.task_id);
      await runner.close();
      expect(end).toMatchObject({ state: S.successful, files: 40, count: 40, failed: 0 });
      for (const [rel, data] of files)
        expect(efile.final.get(`/home/u/${rel}`)?.equals(data), rel).toBe(true);
      const [t] = saved(dir);
      expect(t!.files.length).toBeLessThanOrEqual(LIMITS.window);
      expect([t!.fed, t!.filesDone, t!.listEnded]).toEqual([40, 40, true]);
      // The four ranged files, each finalized the way the server takes.
      expect(legacy ? efile.calls.bySha : efile.calls.byList).toBe(4);
    },
  );

  it('leaves the last state on disk however long each save takes: a task is saved one save at a time', async () => {
    const { dir, src } = folder();
    /**
     * Each save keeps the state it was given and writes it after a delay that shrinks from save to save: saves
     * written side by side would end with an earlier, slower one renamed over a later one.
     */
    class SlowStore extends HistoryStore {
      private n = 0;
      writing = 0;
      mostAtOnce = 0;
      override async save(t: TaskModel) {
        const state = JSON.parse(JSON.stringify(t)) as TaskModel;
        this.writing++;
        this.mostAtOnce = Math.max(this.mostAtOnce, this.writing);
        await new Promise((r) => setTimeout(r, Math.max(0, 40 - 4 * this.n++)));
        try {
          await super.save(state);
        } finally {
          this.writing--;
        }
      }
    }
    const store = new SlowStore(path.join(dir, 'cfg'));
    const runner = new Runner({ store, limits: LIMITS, emit: () => undefined, log: () => undefined });
    runner.setRemote(new FakeEfile(false) as unknown as Remote);
    const task = await runner.addUpload(src, '/home/u');
    const end = await runner.waitFor(task.task_id);
    // What waitFor answered is on disk when it answers.
    const [t] = saved(dir);
    expect([end.state, t!.state, t!.filesDone, t!.fed]).toEqual([S.successful, S.successful, 40, 40]);
    expect(store.mostAtOnce).toBe(1);
    await runner.close();
  });

  it('answers waitFor when the task ends, not at a later poll (no timer needs to fire)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-runner-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'one'));
    fs.writeFileSync(path.join(dir, 'one', 'a.txt'), 'a small file');
    /** The task's only batch waits for the test's word. */
    class GatedEfile extends FakeEfile {
      asked = false;
      open!: () => void;
      private readonly gate = new Promise<void>((r) => (this.open = r));
      override async batch(base: string, tar: Buffer) {
        this.asked = true;
        await this.gate;
        return super.batch(base, tar);
      }
    }
    const efile = new GatedEfile();
    const runner = runnerIn(dir);
    runner.setRemote(efile as unknown as Remote);
    const task = await runner.addUpload(path.join(dir, 'one'), '/home/u');
    while (!efile.asked) await new Promise((r) => setTimeout(r, 5));
    // From here no timer of the runner fires: a waitFor that polls never answers, one woken by the end does.
    const realTimeout = globalThis.setTimeout;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const waiting = runner.waitFor(task.task_id);
      efile.open();
      const end = await Promise.race([waiting, new Promise<null>((r) => realTimeout(() => r(null), 10_000))]);
      expect(end).toMatchObject({ state: S.successful, files: 1, count: 1 });
    } finally {
      vi.useRealTimers();
      await runner.close();
    }
    expect(efile.final.get('/home/u/one/a.txt')?.toString()).toBe('a small file');
  });

  it('resumes a stopped task from its history: one status call, nothing stored sent again', async () => {
    const { dir, src, files } = folder();
    const efile = new FakeEfile();
    let runner = runnerIn(dir);
    runner.setRemote(efile as unknown as Remote);
    const task = await runner.addUpload(src, '/home/u');
    // Let part of it through, then hold every answer and stop the client with work in flight.
    while (efile.final.size < 12) await new Promise((r) => setTimeout(r, 5));
    efile.hold = true;
    await new Promise((r) => setTimeout(r, 50));
    await runner.close();
    await new Promise((r) => setTimeout(r, 50)); // the last save lands
    const before = efile.final.size;
    efile.hold = false;
    const sent = { ...efile.calls };

    runner = runnerIn(dir);
    await runner.load();
    runner.setRemote(efile as unknown as Remote);
    const end = await runner.waitFor(task.task_id);
    await runner.close();
    expect(end).toMatchObject({ state: S.successful, files: 40, count: 40 });
    for (const [rel, data] of files) expect(efile.final.get(`/home/u/${rel}`)?.equals(data), rel).toBe(true);
    expect(efile.calls.status - sent.status).toBe(1);
    // Ranges sent before the restart were hashed again from the local file for the hash list.
    expect(efile.calls.bySha).toBe(0);
    // Only what the server did not have was sent again: small files in batches of 2 at most.
    expect(efile.calls.batch - sent.batch).toBeLessThanOrEqual(Math.ceil((40 - before) / 2) + 4);
  });

  it('begins a download with the first part of its list: batches go while the manifest is still coming', async () => {
    // The manifest stops after 1,100 files: the task began with its first parts (500 files each) meanwhile.
    const { dir, files, efile, runner, task } = await startDownload(1100, 1000);
    expect(efile.askedWhileListing).toBeGreaterThan(0);
    expect(saved(dir).find((t) => t.id === task.task_id)?.listing).toEqual({ paths: ['/home/u/proj'] });
    efile.open();
    const end = await runner.waitFor(task.task_id);
    await runner.close();
    expect(end).toMatchObject({ state: S.successful, files: 1200, count: 1200, failed: 0 });
    expectDownloaded(dir, files);
    // Each file asked once, and the saved task holds a whole list.
    expect(new Set(efile.asked).size).toBe(efile.asked.length);
    const [t] = saved(dir);
    expect([t!.listEnded, t!.fed, t!.listing]).toEqual([true, 1200, undefined]);
  });

  it('continues a list cut by a stop of the client after a restart: every file listed once, the task ends equal', async () => {
    // The first client lists 700 files, fetches some of them, and stops while the manifest is still open.
    const first = await startDownload(700, 400);
    const { dir, files, task, efile: cut } = first;
    await first.runner.close(); // resolves once its last save is written
    expect(saved(dir)[0]!.listing).toBeDefined();

    const whole = new ListingEfile(files);
    const runner = runnerIn(dir);
    await runner.load();
    runner.setRemote(whole as unknown as Remote);
    const end = await runner.waitFor(task.task_id);
    await runner.close();
    expect(end).toMatchObject({ state: S.successful, files: 1200, count: 1200, failed: 0 });
    expectDownloaded(dir, files);
    const lines = fs
      .readFileSync(path.join(dir, 'cfg/tasks', `${task.task_id}.list`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as [string, number])[0]);
    expect([lines.length, new Set(lines).size]).toEqual([1200, 1200]);
    // What the first client had stored is not asked for again.
    const before = new Set(cut.asked);
    expect(whole.asked.filter((p) => before.has(p)).length).toBeLessThanOrEqual(LIMITS.window);
  });

  it('ends a download whose local folder turned into a link while it was listed, with the reason, untried again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-runner-'));
    dirs.push(dir);
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.mkdirSync(path.join(dir, 'down/proj'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(dir, 'down/proj/sub'));
    // The folder comes after 600 files: the task has begun, so the failure is the task's, not the call's.
    const efile = new ListingEfile(remoteFiles(600), Infinity, 'proj/sub');
    const runner = runnerIn(dir);
    runner.setRemote(efile as unknown as Remote);
    const task = await runner.addDownload(['/home/u/proj'], path.join(dir, 'down'));
    const end = await runner.waitFor(task.task_id);
    await runner.close();
    expect(end.state).toBe(S.failed);
    expect(end.error).toMatch(/link/);
    // An ended task is not "still listing", though its list was never whole.
    expect(end.listing).toBe(false);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('reuses the buffers of ranges and keeps no more than one per stream', () => {
    const pool = new RangeBuffers(1024, 2);
    const [a, b, c] = [pool.take(1024), pool.take(100), pool.take(1024)];
    expect(new Set([a, b, c]).size).toBe(3);
    for (const x of [a, b, c]) pool.give(x);
    // Two kept (the third is left to the GC), handed out again, whatever length is asked up to the usual size.
    const again = [pool.take(10), pool.take(1024), pool.take(1024)];
    expect(again.filter((x) => x === a || x === b || x === c)).toHaveLength(2);
    // A range longer than the usual size (a resumed file of a server with larger ranges) gets its own buffer.
    const big = pool.take(4096);
    expect(big.length).toBe(4096);
    pool.give(big);
    expect(pool.take(1024)).not.toBe(big);
  });
});
