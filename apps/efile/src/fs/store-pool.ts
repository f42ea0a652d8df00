import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { findWorkerBundle } from '@hpc/cluster-kit';
import {
  packGroup,
  type EntryStat,
  type ReadOutcome,
  type SmallGroup,
  type SmallGroupWire,
  type SmallOutcome,
  type SmallRead,
} from './small-store';

/**
 * The store thread's script: from a bundle (efile's server, its worker, the all-in-one), the bundle
 * `efile-store-thread.js` in apps/efile/dist; from the source (tests, dev), the .ts beside this file under tsx, never
 * a bundle built from older source. A worker thread does not take `--import tsx` from its execArgv in Node 20, so the
 * .ts is reached through a two-line boot that registers tsx in the thread first.
 */
function threadOf(): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const ts = pathToFileURL(path.join(path.dirname(here), 'store-thread.ts')).href;
    return new Worker(
      `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(ts)}); });`,
      {
        eval: true,
      },
    );
  }
  const bundle = findWorkerBundle(import.meta.url, 'efile', undefined, 'efile-store-thread.js');
  if (!bundle) throw new Error('efile-store-thread.js is not built (npm run build)');
  return new Worker(bundle);
}

interface Pending {
  ok: (out: unknown[]) => void;
  fail: (e: Error) => void;
}

interface Slot {
  thread: Worker | null;
  pending: Map<number, Pending>;
  idle: NodeJS.Timeout | null;
}

/** A store thread with nothing to do for this long stops (a user's worker may live for hours after a transfer). */
const IDLE_MS = 30_000;

/**
 * The store threads of one user file system (`count`, started as groups need them, stopped after IDLE_MS without
 * one; unref'd while idle, so none holds the process open). A group goes to the thread with the least under way: on a file system where a
 * call waits (a cold disk, a metadata server over the network), several threads wait at once, as the thread pool's
 * 16 did. A thread that dies fails its groups in flight (their files are sent again by the client, like any failed
 * batch) and the next group starts a new one.
 */
export class StoreThreads {
  private readonly slots: Slot[];
  private next = 1;

  constructor(count = 4) {
    this.slots = Array.from({ length: Math.max(1, count) }, () => ({
      thread: null,
      pending: new Map(),
      idle: null,
    }));
  }

  store(group: SmallGroup): Promise<SmallOutcome[]> {
    const wire = packGroup(group);
    // Shared memory goes as it is; a block of its own moves to the thread.
    const moving = wire.block.buffer instanceof ArrayBuffer ? [wire.block.buffer] : [];
    return this.send({ group: wire }, moving) as Promise<SmallOutcome[]>;
  }

  read(reads: SmallRead[]): Promise<ReadOutcome[]> {
    return this.send({ reads }) as Promise<ReadOutcome[]>;
  }

  /** lstat of each of `hosts` (a walk's entries of one folder). */
  stats(hosts: string[]): Promise<EntryStat[]> {
    return this.send({ stats: hosts }) as Promise<EntryStat[]>;
  }

  private send(
    payload: { group?: SmallGroupWire; reads?: SmallRead[]; stats?: string[] },
    transfer: ArrayBuffer[] = [],
  ): Promise<unknown[]> {
    const slot = this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    let t: Worker;
    try {
      t = this.start(slot);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    const id = this.next++;
    return new Promise<unknown[]>((ok, fail) => {
      slot.pending.set(id, { ok, fail });
      if (slot.pending.size === 1) t.ref();
      t.postMessage({ id, ...payload }, transfer);
    });
  }

  private start(slot: Slot): Worker {
    if (slot.thread) return slot.thread;
    const t = threadOf();
    t.unref();
    t.on('message', (m: { id: number; out?: unknown[]; error?: string }) => {
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      if (slot.pending.size === 0) {
        t.unref();
        slot.idle = setTimeout(() => {
          if (slot.thread !== t || slot.pending.size > 0) return;
          slot.thread = null;
          void t.terminate();
        }, IDLE_MS);
        slot.idle.unref();
      }
      if (m.out) p.ok(m.out);
      else p.fail(new Error(m.error ?? 'the store thread failed'));
    });
    const gone = (e: Error) => {
      if (slot.thread !== t) return;
      slot.thread = null;
      for (const p of slot.pending.values()) p.fail(e);
      slot.pending.clear();
    };
    t.on('error', gone);
    t.on('exit', (c) => gone(new Error(`the store thread stopped (${c})`)));
    slot.thread = t;
    return t;
  }

  async close(): Promise<void> {
    await Promise.all(
      this.slots.map(async (slot) => {
        const t = slot.thread;
        if (slot.idle) clearTimeout(slot.idle);
        slot.idle = null;
        if (!t) return;
        slot.thread = null;
        for (const p of slot.pending.values()) p.fail(new Error('closed'));
        slot.pending.clear();
        await t.terminate();
      }),
    );
  }
}
