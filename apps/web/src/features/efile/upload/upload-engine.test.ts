import { describe, expect, it, vi } from 'vitest';
import { ChunkError, type ChunkTransport } from './chunk-transport';
import { UploadEngine, type EngineOptions } from './upload-engine';

const target = { clusterId: 'c1', clusterName: 'C1', baseUrl: '/efile/c1', dir: '/home/u' };
const flush = () => new Promise((r) => setTimeout(r, 0));

/** A server in memory: chunks stored per identifier, sends held until released when `hold` is set. */
function fakeServer(opts: { failOn?: number; hold?: boolean } = {}) {
  const sends: number[] = [];
  const stored = new Map<string, Set<number>>();
  const pending: (() => void)[] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  const transport: ChunkTransport = {
    test: async (_t, f, n) => stored.get(f.identifier)?.has(n) ?? false,
    send: (_t, f, n, signal) =>
      new Promise((resolve, reject) => {
        sends.push(n);
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        const finish = () => {
          concurrent--;
          if (signal.aborted) return reject(new ChunkError('0', true));
          if (n === opts.failOn) return reject(new ChunkError('1501'));
          const s = stored.get(f.identifier) ?? new Set<number>();
          s.add(n);
          stored.set(f.identifier, s);
          resolve({ complete: s.size === Math.max(1, Math.floor(f.size / f.chunkSize)) });
        };
        signal.addEventListener('abort', () => {
          concurrent--;
          reject(new ChunkError('0', true));
        });
        if (opts.hold) pending.push(finish);
        else setTimeout(finish, 0);
      }),
  };
  return {
    transport,
    stored,
    pending,
    sends,
    max: () => maxConcurrent,
    heal: () => {
      opts.failOn = undefined;
    },
  };
}

/** An engine on a server's transport that merges and deletes nothing and whose timer never fires, but for `over`. */
function engineWith(server: { transport: ChunkTransport }, over: Partial<EngineOptions> = {}) {
  return new UploadEngine({
    transport: server.transport,
    merge: async () => undefined,
    deletePartial: vi.fn(async () => undefined),
    setInterval: () => 1,
    clearInterval: () => undefined,
    ...over,
  });
}

const blob = (n: number) => new Blob([new Uint8Array(n)]);
/** An upload of one file of `size` bytes into `target`, in 4-byte chunks, not overwriting. */
const oneFile = (name: string, size: number) => ({
  target,
  name,
  isFolder: false,
  chunkSize: 4,
  overwrite: false,
  files: [{ blob: blob(size), relativePath: name }],
});

describe('UploadEngine', () => {
  it('uploads a folder with at most 3 chunks in flight and finishes at progress 1', async () => {
    const server = fakeServer();
    const engine = engineWith(server);
    const done: string[] = [];
    engine.onFileDone((_t, f) => done.push(f.relativePath));
    engine.add({
      target,
      name: 'd',
      isFolder: true,
      chunkSize: 4,
      overwrite: false,
      files: [
        { blob: blob(17), relativePath: 'd/a.bin' },
        { blob: blob(0), relativePath: 'd/empty.txt' },
        { blob: blob(9), relativePath: 'd/s/b.bin' },
      ],
    });
    for (let i = 0; i < 50 && engine.getSnapshot()[0]?.status !== 'success'; i++) await flush();
    expect(engine.getSnapshot()[0]).toMatchObject({ status: 'success', progress: 1, fileCount: 3 });
    expect(server.max()).toBeLessThanOrEqual(3);
    expect(done.sort()).toEqual(['d/a.bin', 'd/empty.txt', 'd/s/b.bin']);
    expect(engine.hasUnfinished()).toBe(false);
  });

  it('pauses (aborting chunks in flight), resumes to play and completes', async () => {
    const server = fakeServer({ hold: true });
    const engine = engineWith(server);
    const id = engine.add(oneFile('big', 40));
    await flush();
    server.pending.shift()?.();
    await flush();
    engine.pause(id);
    expect(engine.getSnapshot()[0]?.status).toBe('pause');
    server.pending.length = 0;
    engine.resume(id);
    expect(engine.getSnapshot()[0]?.status).toBe('play');
    for (let i = 0; i < 100 && engine.getSnapshot()[0]?.status !== 'success'; i++) {
      server.pending.shift()?.();
      await flush();
    }
    expect(engine.getSnapshot()[0]?.status).toBe('success');
    expect(server.stored.get('40-big')?.size).toBe(10);
  });

  it('keeps the progress a row showed when paused, and never shows less after resuming (issue 25 §3.10)', async () => {
    // Every chunk reports all its bytes sent at once, then waits for its answer until released.
    const release: (() => void)[] = [];
    const transport: ChunkTransport = {
      test: async () => false,
      send: (_t, _f, _n, signal, onProgress) =>
        new Promise((resolve, reject) => {
          onProgress(4);
          signal.addEventListener('abort', () => reject(new ChunkError('0', true)));
          release.push(() => resolve({ complete: false }));
        }),
    };
    let tick = () => undefined as void;
    const engine = engineWith(
      { transport },
      {
        setInterval: (fn) => {
          tick = fn;
          return 1;
        },
      },
    );
    const id = engine.add(oneFile('big', 100));
    await flush();
    release.shift()?.();
    await flush();
    tick();
    const progress = () => engine.getSnapshot()[0]!.progress;
    const shown = progress();
    // One chunk stored, three on their way: 16 of 100 bytes.
    expect(shown).toBeCloseTo(0.16);
    // Pausing drops the chunks in flight (they are sent again), but the row keeps what it showed: never 0 %.
    engine.pause(id);
    expect(engine.getSnapshot()[0]?.status).toBe('pause');
    expect(progress()).toBeGreaterThanOrEqual(shown);
    // Resuming starts the dropped chunks again: progress stays until the upload passes it, and never goes back.
    engine.resume(id);
    let last = progress();
    expect(last).toBeGreaterThanOrEqual(shown);
    for (let i = 0; i < 40 && engine.getSnapshot()[0]?.status !== 'success'; i++) {
      release.shift()?.();
      await flush();
      tick();
      expect(progress()).toBeGreaterThanOrEqual(last);
      last = progress();
    }
    expect(engine.getSnapshot()[0]).toMatchObject({ status: 'success', progress: 1 });
  });

  it('fails a file at once on an error code, and deleting it removes its partial file', async () => {
    const server = fakeServer({ failOn: 2 });
    const deletePartial = vi.fn(async () => undefined);
    const engine = engineWith(server, { deletePartial });
    const id = engine.add(oneFile('x.bin', 12));
    for (let i = 0; i < 20; i++) await flush();
    expect(engine.getSnapshot()[0]).toMatchObject({ status: 'error', errorCode: '1501' });
    expect(await engine.remove(id)).toBe('deleted');
    expect(deletePartial).toHaveBeenCalledWith(target, ['/home/u/x.bin']);
    expect(engine.getSnapshot()).toEqual([]);
  });

  it('deleting a file whose first chunk is still in flight deletes its partial file too', async () => {
    const server = fakeServer({ hold: true });
    const deletePartial = vi.fn(async () => undefined);
    const engine = engineWith(server, { deletePartial });
    const id = engine.add(oneFile('slow.bin', 16));
    await flush();
    // Chunks are on their way (the server may have begun the file), none has finished, no progress reported.
    expect(server.sends.length).toBeGreaterThan(0);
    expect(await engine.remove(id)).toBe('deleted');
    expect(deletePartial).toHaveBeenCalledWith(target, ['/home/u/slow.bin']);
  });

  it('removes a finished row from the list without touching the server', async () => {
    const server = fakeServer();
    const deletePartial = vi.fn(async () => undefined);
    const engine = engineWith(server, { deletePartial });
    const id = engine.add(oneFile('y', 3));
    for (let i = 0; i < 10; i++) await flush();
    expect(await engine.remove(id)).toBe('removed');
    expect(deletePartial).not.toHaveBeenCalled();
  });

  it('retries an error row from its stored chunks: only the missing ones are sent again', async () => {
    const server = fakeServer({ failOn: 3 });
    const engine = engineWith(server);
    const done: string[] = [];
    engine.onFileDone((_t, f) => done.push(f.relativePath));
    const id = engine.add(oneFile('r.bin', 20));
    for (let i = 0; i < 20; i++) await flush();
    expect(engine.getSnapshot()[0]).toMatchObject({ status: 'error', errorCode: '1501' });
    const before = server.sends.length;
    server.heal();
    expect(engine.retry(id)).toBe(true);
    expect(engine.getSnapshot()[0]?.status).not.toBe('error');
    for (let i = 0; i < 50 && engine.getSnapshot()[0]?.status !== 'success'; i++) await flush();
    expect(engine.getSnapshot()[0]).toMatchObject({ status: 'success', progress: 1 });
    expect(done).toEqual(['r.bin']);
    // Chunks 1 and 2 were stored before the failure and are not sent again.
    const again = server.sends.slice(before);
    expect(again).toContain(3);
    expect(again).not.toContain(1);
    expect(again).not.toContain(2);
  });

  it('retries a file whose chunks are all stored but whose merge failed, by merging again', async () => {
    const server = fakeServer();
    let failMerge = true;
    const merge = vi.fn(async () => {
      if (failMerge) throw Object.assign(new Error('merge'), { code: '1001' });
    });
    const transport: ChunkTransport = {
      ...server.transport,
      send: async (...a) => ({ ...(await server.transport.send(...a)), complete: false }),
    };
    const engine = engineWith({ transport }, { merge });
    const id = engine.add(oneFile('m.bin', 8));
    for (let i = 0; i < 20; i++) await flush();
    expect(engine.getSnapshot()[0]).toMatchObject({ status: 'error', errorCode: '1001' });
    const sent = server.sends.length;
    failMerge = false;
    engine.retry(id);
    for (let i = 0; i < 20 && engine.getSnapshot()[0]?.status !== 'success'; i++) await flush();
    expect(engine.getSnapshot()[0]?.status).toBe('success');
    expect(merge).toHaveBeenCalledTimes(2);
    expect(server.sends.length).toBe(sent);
  });

  it('has nothing to retry on a row that failed before any file started', () => {
    const engine = engineWith(fakeServer());
    engine.addFailed(target, 'dir', true, '1030');
    expect(engine.retry(engine.getSnapshot()[0]!.id)).toBe(false);
    expect(engine.getSnapshot()[0]?.status).toBe('error');
  });

  it('moves an upload to another instance when its instance stops answering (spec §4 failover)', async () => {
    // Instance A answers chunks 1-3, then is gone (network error); B has every chunk A stored (shared database).
    const byBase: Record<string, number[]> = { a: [], b: [] };
    const stored = new Set<number>();
    let aDown = false;
    const transport: ChunkTransport = {
      test: async (t, _f, n) => {
        if (t.baseUrl === 'a' && aDown) throw new ChunkError('0');
        return stored.has(n);
      },
      send: async (t, _f, n) => {
        await flush();
        if (t.baseUrl === 'a' && (aDown || stored.size >= 3)) {
          aDown = true;
          throw new ChunkError('502');
        }
        byBase[t.baseUrl]!.push(n);
        stored.add(n);
        return { complete: false };
      },
    };
    const merged: string[] = [];
    const failover = vi.fn(async () => 'b');
    const engine = engineWith({ transport }, { merge: async (t) => void merged.push(t.baseUrl) });
    engine.add({ ...oneFile('f', 40), target: { ...target, baseUrl: 'a', failover } });
    for (let i = 0; i < 200 && engine.getSnapshot()[0]?.status !== 'success'; i++) await flush();
    expect(engine.getSnapshot()[0]?.status).toBe('success');
    // Concurrent failures of one row ask for one new instance.
    expect(failover).toHaveBeenCalledTimes(1);
    expect([...stored].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(byBase.b!.length).toBe(10 - byBase.a!.length);
    expect(merged).toEqual(['b']);
  });

  it('fails the file when no other instance answers, and on a chunk error that is not about the instance', async () => {
    const transport: ChunkTransport = {
      test: async () => false,
      send: async () => {
        await flush();
        throw new ChunkError('0');
      },
    };
    const engine = engineWith({ transport });
    engine.add({ ...oneFile('f', 8), target: { ...target, baseUrl: 'a', failover: async () => null } });
    for (let i = 0; i < 100 && engine.getSnapshot()[0]?.status !== 'error'; i++) await flush();
    expect(engine.getSnapshot()[0]?.status).toBe('error');

    const server = fakeServer({ failOn: 1 });
    const failover = vi.fn(async () => 'b');
    const e2 = engineWith(server);
    e2.add({ ...oneFile('g', 8), target: { ...target, failover } });
    for (let i = 0; i < 100 && e2.getSnapshot()[0]?.status !== 'error'; i++) await flush();
    expect(e2.getSnapshot()[0]?.status).toBe('error');
    expect(failover).not.toHaveBeenCalled();
  });
});
