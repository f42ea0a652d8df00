import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FastransTaskState as S } from '@hpc/contracts';
import {
  batchDone,
  cancel,
  createTask,
  failedFiles,
  feed,
  fileOf,
  finalizeDone,
  finalizeFailed,
  nextWork,
  opened,
  openFailed,
  pause,
  rangeDone,
  rangeBounds,
  rangeFailed,
  recover,
  resume,
  retry,
  room,
  start,
  type EngineLimits,
  type TaskKind,
  type TaskModel,
  type Work,
} from './task';
import { SpeedMeter } from './speed';

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const LIMITS: EngineLimits = {
  filesInFlight: 2,
  streamsPerFile: 3,
  streamsTotal: 4,
  smallFile: 300,
  batchFiles: 3,
  batchBytes: 1000,
  batchesInFlight: 2,
  rangeSize: 128,
  maxAttempts: 1000,
  backoffBaseMs: 10,
  backoffMaxMs: 100,
  window: 3,
};

/**
 * A simulated server and client disk. Uploads: the server keeps a partial file per upload id, the ranges it stored
 * with the SHA-256 it computed of each while writing (only ranges received whole and equal to the client's digest),
 * and final files. A range send that goes wrong may leave any bytes inside its own bounds, and then the range is no
 * longer recorded (efile removes the record before it writes). Finalize is efile's: ranges missing are named (the
 * client sends those again), the hash list of the recorded digests must equal the client's (else every range is
 * forgotten), and the file is not read again. Downloads: the source is on the server, the partial on the local
 * disk; finalize compares the SHA-256 of both.
 */
class World {
  partial = new Map<string, Buffer>();
  stored = new Map<string, Map<number, string>>();
  final = new Map<string, Buffer>();
  constructor(
    readonly kind: TaskKind,
    readonly sources: Map<string, Buffer>,
  ) {}

  idOf(rel: string) {
    return `id-${rel}`;
  }
  buf(rel: string, size: number) {
    const id = this.idOf(rel);
    if (!this.partial.has(id)) this.partial.set(id, Buffer.alloc(size));
    if (!this.stored.has(id)) this.stored.set(id, new Map());
    return { id, buf: this.partial.get(id)!, stored: this.stored.get(id)! };
  }
  status(t: TaskModel) {
    const m = new Map<string, { id: string; done: boolean; ranges: number[] }>();
    for (const f of t.files) {
      if (this.final.has(f.rel)) m.set(f.rel, { id: this.idOf(f.rel), done: true, ranges: [] });
      else if (this.stored.has(this.idOf(f.rel)))
        m.set(f.rel, {
          id: this.idOf(f.rel),
          done: false,
          ranges: [...this.stored.get(this.idOf(f.rel))!.keys()],
        });
    }
    return m;
  }
}

type Outcome = 'ok' | 'fail' | 'garbage' | 'lostAnswer';

function perform(
  w: World,
  t: TaskModel,
  work: Work,
  outcome: Outcome,
  now: number,
  garbageByte: number,
): void {
  // Work in flight names files that are in the window (a file leaves it only once settled).
  const file = (i: number) => fileOf(t, i)!;
  const src = (i: number) => w.sources.get(file(i).rel)!;
  switch (work.type) {
    case 'open': {
      if (outcome === 'fail') return openFailed(t, work.files, 'net', now, LIMITS);
      const res = work.files.map((i) => {
        const f = file(i);
        if (w.final.has(f.rel)) return { file: i, id: w.idOf(f.rel), done: true, ranges: [] };
        const { id, stored } = w.buf(f.rel, f.size);
        return { file: i, id, done: false, ranges: [...stored.keys()] };
      });
      if (outcome === 'lostAnswer') return openFailed(t, work.files, 'net', now, LIMITS);
      return opened(t, res, now);
    }
    case 'range': {
      const f = file(work.file);
      const { buf, stored } = w.buf(f.rel, f.size);
      if (outcome === 'garbage' || outcome === 'fail') {
        if (outcome === 'garbage') {
          buf.fill(garbageByte, work.start, Math.max(work.start, work.end - 1));
          stored.delete(work.n);
        }
        return rangeFailed(t, work.file, work.n, 'net', now, LIMITS);
      }
      src(work.file).copy(buf, work.start, work.start, work.end);
      if (w.kind === 'upload') stored.set(work.n, sha(buf.subarray(work.start, work.end)));
      if (outcome === 'lostAnswer') return rangeFailed(t, work.file, work.n, 'net', now, LIMITS);
      return rangeDone(t, work.file, work.n, now);
    }
    case 'batch': {
      if (outcome === 'fail' || outcome === 'garbage')
        return batchDone(
          t,
          [],
          work.files.map((file) => ({ file, error: 'net' })),
          now,
          LIMITS,
        );
      // Each file of a batch is checked and renamed on its own: all of them land whole.
      for (const i of work.files) w.final.set(file(i).rel, Buffer.from(src(i)));
      if (outcome === 'lostAnswer')
        return batchDone(
          t,
          [],
          work.files.map((file) => ({ file, error: 'net' })),
          now,
          LIMITS,
        );
      return batchDone(t, work.files, [], now, LIMITS);
    }
    case 'finalize': {
      const f = file(work.file);
      if (outcome === 'fail') return finalizeFailed(t, work.file, 'net', false, now, LIMITS);
      if (w.final.has(f.rel)) return finalizeDone(t, work.file, now); // an earlier answer was lost
      const { id, buf, stored } = w.buf(f.rel, f.size);
      if (w.kind === 'upload') {
        const missing = f.ranges.map((_, n) => n).filter((n) => !stored.has(n));
        if (missing.length)
          return finalizeFailed(t, work.file, 'missing', false, now, LIMITS, false, missing);
        const list = (digest: (n: number) => string) =>
          crypto
            .createHash('sha256')
            .update(Buffer.concat(f.ranges.map((_, n) => Buffer.from(digest(n), 'hex'))))
            .digest('hex');
        const theirs = list((n) => {
          const b = rangeBounds(f, n);
          return sha(src(work.file).subarray(b.start, b.end));
        });
        if (list((n) => stored.get(n)!) !== theirs) {
          w.stored.set(id, new Map());
          return finalizeFailed(t, work.file, 'checksum', true, now, LIMITS);
        }
      } else if (sha(buf) !== sha(src(work.file))) {
        return finalizeFailed(t, work.file, 'checksum', true, now, LIMITS);
      }
      w.final.set(f.rel, Buffer.from(buf));
      w.partial.delete(id);
      w.stored.delete(id);
      if (outcome === 'lostAnswer') return finalizeFailed(t, work.file, 'net', false, now, LIMITS);
      return finalizeDone(t, work.file, now);
    }
  }
}

const fileArb = fc.array(fc.integer({ min: 0, max: 900 }), { minLength: 0, maxLength: 8 });
const stepArb = fc.record({
  pick: fc.nat(),
  outcome: fc.constantFrom<Outcome>('ok', 'ok', 'fail', 'garbage', 'lostAnswer'),
  event: fc.constantFrom(
    'none',
    'none',
    'none',
    'none',
    'clientKill',
    'snapshot',
    'pause',
    'serverKill',
    'staleSend',
  ),
  feed: fc.boolean(),
  byte: fc.integer({ min: 0, max: 255 }),
});

function run(
  kind: TaskKind,
  sizes: number[],
  steps: { pick: number; outcome: Outcome; event: string; byte: number; feed: boolean }[],
  seed: number,
) {
  const rnd = crypto.createHash('sha256').update(String(seed)).digest();
  const sources = new Map(
    sizes.map((s, i) => [
      `d/f${i}.bin`,
      Buffer.from(Array.from({ length: s }, (_, k) => rnd[(k + i) % 32]! ^ (k & 0xff))),
    ]),
  );
  const w = new World(kind, sources);
  const files = [...sources].map(([rel, b]) => ({ rel, size: b.length }));
  // The list stays with the driver (on disk in the client); the window takes at most LIMITS.window files of it.
  let t = createTask(
    {
      id: 't',
      kind,
      local: '/l',
      remote: '/r',
      clusterId: 'c',
      filesTotal: files.length,
      bytesTotal: files.reduce((a, f) => a + f.size, 0),
    },
    0,
    LIMITS,
  );
  start(t, true, 0);
  let snapshot = structuredClone(t);
  let now = 0;
  let flying: Work[] = [];
  let i = 0;
  for (let guard = 0; guard < 100_000; guard++) {
    now += 7;
    const step = steps[i++];
    // The window is fed at any moment, and always when nothing else would happen.
    const space = room(t, LIMITS);
    if (space > 0 && (step?.feed !== false || flying.length === 0)) {
      const part = files.slice(t.fed, t.fed + space);
      feed(t, part, t.fed + part.length, t.fed + part.length === files.length, LIMITS);
    }
    expect(t.files.length).toBeLessThanOrEqual(LIMITS.window);
    flying.push(...nextWork(t, now, LIMITS));
    if (t.state === S.successful) break;
    expect(t.state).not.toBe(S.failed);
    if (step && step.event === 'snapshot') snapshot = structuredClone(t);
    if (step && step.event === 'staleSend' && kind === 'upload') {
      // An old send of some range (its answer given up long ago, or another client's) writes bad bytes into a
      // partial whose range the client counts as stored: efile un-records the range, finalize then names it.
      const f = t.files.find((x) => x.mode === 'ranges' && x.remoteId && !w.final.has(x.rel));
      if (f) {
        const n = step.pick % f.ranges.length;
        const { buf, stored } = w.buf(f.rel, f.size);
        const b = rangeBounds(f, n);
        buf.fill(step.byte, b.start, b.end);
        stored.delete(n);
      }
    }
    if (step && step.event === 'pause') {
      pause(t, now);
      // Answers of what was in flight still arrive while stopping.
      for (const wk of flying) perform(w, t, wk, 'ok', now, 0);
      flying = [];
      expect([S.stopped, S.successful]).toContain(t.state);
      resume(t, true, now);
      continue;
    }
    if (step && (step.event === 'clientKill' || step.event === 'serverKill')) {
      // Whatever was in flight is lost. A killed client restarts from its last saved history; uploads then ask
      // the server once what it has. A killed server keeps its disk and database; the client's requests failed.
      flying = [];
      if (step.event === 'clientKill') t = structuredClone(snapshot);
      recover(t, kind === 'upload' ? w.status(t) : null, now);
      continue;
    }
    if (flying.length === 0) {
      now += 200; // waiting out a backoff
      continue;
    }
    const k = (step?.pick ?? 0) % flying.length;
    const wk = flying.splice(k, 1)[0]!;
    perform(w, t, wk, step?.outcome ?? 'ok', now, step?.byte ?? 0);
  }
  expect(t.state).toBe(S.successful);
  expect(t.bytesDone).toBe(t.bytesTotal);
  expect([t.filesDone, t.fed]).toEqual([files.length, files.length]);
  for (const [rel, src] of sources) {
    const got = w.final.get(rel);
    expect(got && got.equals(src), rel).toBe(true);
  }
}

describe('transfer engine', () => {
  it.each(['upload', 'download'] as const)(
    'any interleaving of %s range completions, failures and restarts ends with the exact files',
    (kind) => {
      fc.assert(
        fc.property(fileArb, fc.array(stepArb, { maxLength: 300 }), fc.nat(), (sizes, steps, seed) =>
          run(kind, sizes, steps, seed),
        ),
        { numRuns: 150 },
      );
    },
  );

  it('sends several ranges of several large files at once, small files in batches, within the limits', () => {
    const t = createTask(
      {
        id: 't',
        kind: 'download',
        local: '/l',
        remote: '/r',
        clusterId: 'c',
        files: [
          { rel: 'a', size: 1000 },
          { rel: 'b', size: 1000 },
          { rel: 'c', size: 1000 },
          { rel: 's1', size: 10 },
          { rel: 's2', size: 10 },
        ],
      },
      0,
      LIMITS,
    );
    start(t, true, 0);
    const w = nextWork(t, 1, LIMITS);
    const ranges = w.filter((x) => x.type === 'range');
    expect(ranges).toHaveLength(LIMITS.streamsTotal);
    expect(new Set(ranges.map((r) => (r.type === 'range' ? r.file : -1)))).toEqual(new Set([0, 1]));
    expect(w.filter((x) => x.type === 'batch')).toEqual([{ type: 'batch', files: [3, 4] }]);
  });

  it('backs off a failed range, fails the file after maxAttempts, and pauses/cancels', () => {
    const limits = { ...LIMITS, maxAttempts: 2, rangeSize: 2000, smallFile: 10 };
    const t = createTask(
      {
        id: 't',
        kind: 'download',
        local: '/l',
        remote: '/r',
        clusterId: 'c',
        files: [{ rel: 'a', size: 1000 }],
      },
      0,
      limits,
    );
    start(t, true, 0);
    const [first] = nextWork(t, 0, limits);
    if (first?.type !== 'range') throw new Error('expected a range');
    rangeFailed(t, 0, first.n, 'net', 0, limits);
    expect(nextWork(t, 1, limits).some((x) => x.type === 'range' && x.n === first.n)).toBe(false);
    const again = nextWork(t, 1000, limits).find((x) => x.type === 'range' && x.n === first.n);
    expect(again).toBeTruthy();
    rangeFailed(t, 0, first.n, 'net', 1000, limits);
    expect(failedFiles(t).map((f) => f.rel)).toEqual(['a']);
    expect(t.state).toBe(S.failed);

    const u = createTask(
      { id: 'u', kind: 'upload', local: '/l', remote: '/r', clusterId: 'c', files: [{ rel: 'a', size: 10 }] },
      0,
      limits,
    );
    start(u, false, 0);
    expect(u.state).toBe(S.waitLoginInfo);
    expect(nextWork(u, 0, limits)).toEqual([]);
    start(u, true, 0);
    expect(nextWork(u, 0, limits)).toHaveLength(1);
    pause(u, 1);
    expect(u.state).toBe(S.stopping);
    batchDone(u, [0], [], 2, limits);
    expect(u.state).toBe(S.stopped);
    cancel(u, 3);
    expect([u.state, u.error]).toEqual([S.failed, 'cancelled']);
  });

  it('keeps failed files aside when the window moves on, and a retry brings them back under new numbers', () => {
    const limits = { ...LIMITS, window: 2, batchFiles: 1 };
    const list = ['a', 'b', 'c'].map((rel) => ({ rel, size: 10 }));
    const t = createTask(
      { id: 't', kind: 'upload', local: '/l', remote: '/r', clusterId: 'c', filesTotal: 3, bytesTotal: 30 },
      0,
      limits,
    );
    start(t, true, 0);
    feed(t, list.slice(0, room(t, limits)), 2, false, limits);
    const [wa, wb] = nextWork(t, 0, limits);
    if (wa?.type !== 'batch' || wb?.type !== 'batch') throw new Error('expected two batches');
    batchDone(t, [], [{ file: wa.files[0]!, error: '1030', permanent: true }], 1, limits);
    batchDone(t, wb.files, [], 1, limits);
    expect(room(t, limits)).toBe(2); // both left the window: a aside as failed, b counted as done
    expect(t.files).toEqual([]);
    feed(t, list.slice(2), 3, true, limits);
    const [wc] = nextWork(t, 2, limits);
    if (wc?.type !== 'batch') throw new Error('expected a batch');
    // A late answer about a file that left the window changes nothing.
    batchDone(t, wb.files, [], 2, limits);
    batchDone(t, wc.files, [], 2, limits);
    expect([t.state, t.filesDone, t.bytesDone, failedFiles(t).map((f) => f.rel)]).toEqual([
      S.failed,
      2,
      20,
      ['a'],
    ]);
    retry(t, true, 3);
    const [wr] = nextWork(t, 3, limits);
    if (wr?.type !== 'batch') throw new Error('expected the retried batch');
    expect(wr.files[0]).toBeGreaterThan(wc.files[0]!);
    batchDone(t, [wa.files[0]!], [], 4, limits); // the failed attempt's number: not the retried file any more
    expect(t.state).toBe(S.started);
    batchDone(t, wr.files, [], 4, limits);
    expect([t.state, t.filesDone, t.bytesDone]).toEqual([S.successful, 3, 30]);
  });

  it('measures a smoothed speed and an ETA', () => {
    const m = new SpeedMeter(0.5, 500);
    m.sample(0, 0);
    expect(m.eta(0, 100)).toBeNull();
    m.sample(1000, 1000);
    expect(m.speed).toBe(1000);
    m.sample(1000, 1100); // too soon: unchanged
    expect(m.speed).toBe(1000);
    m.sample(4000, 2000);
    expect(m.speed).toBe(2000);
    expect(m.eta(4000, 10_000)).toBe(3);
  });
});
