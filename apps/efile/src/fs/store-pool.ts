import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { findWorkerBundle } from '@hpc/cluster-kit';
import type { ReadOutcome, SmallGroup, SmallOutcome, SmallRead } from './small-store';

/**
 * The store thread's script: the bundle in apps/efile/dist (`efile-store-thread.js`, beside the worker's bundle), or
 * the .ts beside this file under tsx (tests, dev). A worker thread does not take `--import tsx` from its execArgv in
 * Node 20, so the .ts is reached through a two-line boot that registers tsx in the thread first.
 */
function threadOf(): Worker {
  const bundle = findWorkerBundle(import.meta.url, 'efile', undefined, 'efile-store-thread.js');
  if (bundle) return new Worker(bundle);
  const ts = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'store-thread.ts')).href;
  return new Worker(
    `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(ts)}); });`,
    {
      eval: true,
    },
  );
}

interface Pending {
  ok: (out: unknown[]) => void;
  fail: (e: Error) => void;
}

/**
 * One store thread per user file system, started at the first group and kept while groups are under way (unref'd
 * when idle, so it never holds the process open). A thread that dies fails its groups in flight (their files are
 * sent again by the client, like any failed batch) and the next group starts a new one.
 */
export class StoreThread {
  private thread: Worker | null = null;
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  store(group: SmallGroup): Promise<SmallOutcome[]> {
    return this.send({ group }) as Promise<SmallOutcome[]>;
  }

  read(reads: SmallRead[]): Promise<ReadOutcome[]> {
    return this.send({ reads }) as Promise<ReadOutcome[]>;
  }

  private send(payload: { group?: SmallGroup; reads?: SmallRead[] }): Promise<unknown[]> {
    const t = this.start();
    const id = this.next++;
    return new Promise<unknown[]>((ok, fail) => {
      this.pending.set(id, { ok, fail });
      if (this.pending.size === 1) t.ref();
      t.postMessage({ id, ...payload });
    });
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    const t = threadOf();
    t.unref();
    t.on('message', (m: { id: number; out?: unknown[]; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) t.unref();
      if (m.out) p.ok(m.out);
      else p.fail(new Error(m.error ?? 'the store thread failed'));
    });
    const gone = (e: Error) => {
      if (this.thread !== t) return;
      this.thread = null;
      for (const p of this.pending.values()) p.fail(e);
      this.pending.clear();
    };
    t.on('error', gone);
    t.on('exit', (c) => gone(new Error(`the store thread stopped (${c})`)));
    this.thread = t;
    return t;
  }

  async close(): Promise<void> {
    const t = this.thread;
    if (!t) return;
    this.thread = null;
    for (const p of this.pending.values()) p.fail(new Error('closed'));
    this.pending.clear();
    await t.terminate();
  }
}
