import { Readable } from 'node:stream';
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryKv } from '@hpc/server-kit';
import tar from 'tar-stream';
import type { EfileCaller, EfileRequest } from './efile-caller';
import { ModelCopyService } from './model-copy.service';
import type { ModelFilesService } from './model-files';

const BYTES = Buffer.alloc(3 * 1024 * 1024, 7);
const ROW = {
  item_id: 1,
  path: 'weights.bin',
  stored_path: 'x',
  size: BYTES.length,
  sha256: crypto.createHash('sha256').update(BYTES).digest('hex'),
};

/**
 * An efile that answers the copy's calls the way a real one does (check, exist, the scoped Linux-upload token) and
 * hands the tar PUT to `onPut`; every request is recorded.
 */
function fakeEfile(onPut: (req: EfileRequest) => Promise<unknown>) {
  const calls: EfileRequest[] = [];
  const call = (async (_base: string, req: EfileRequest) => {
    calls.push(req);
    if (req.path === '/check.action') return { check_result: 'ok' };
    if (req.path === '/exist.action')
      return { code: '0', msg: '', data: { exist: false, isDirectory: false } };
    if (req.path.startsWith('/linuxUpload.action')) return { code: '0', msg: '', data: { token: 'scoped' } };
    if (req.method === 'PUT') return onPut(req);
    return { code: '0', msg: '', data: null };
  }) as unknown as EfileCaller;
  return { calls, call };
}

/** The service under test for user 7 on cluster c1 (home /home/u), with the given stored files and efile. */
function copyService(files: Partial<ModelFilesService>, call: EfileCaller) {
  const kv = new MemoryKv();
  const service = new ModelCopyService({
    files: files as ModelFilesService,
    kv,
    now: Date.now,
    efileInfo: async () => ({
      clusterId: 'c1',
      efileUrl: '/efile/c1',
      efileUrls: ['/efile/c1'],
      homePath: '/home/u',
      username: 'u',
    }),
    clusterToken: async () => 'cluster-token',
    call,
    warn: () => undefined,
  });
  return { service, kv };
}

/** Polls the job until it is no longer running. */
async function settled(service: ModelCopyService, jobId: string) {
  let final = await service.progress(7, jobId);
  while (final.state === 'running') {
    await new Promise((r) => setTimeout(r, 10));
    final = await service.progress(7, jobId);
  }
  return final;
}

/**
 * Cancelling a running copy: an efile whose tar PUT reads one piece, then waits until the test cancels. The copy
 * must end "cancelled" (not "error"), remove its staging folder and never rename it into place.
 */
describe('model copy cancel', () => {
  it('stops the stream, removes the staging folder and frees the user for the next copy', async () => {
    let firstPiece!: () => void;
    const gotPiece = new Promise<void>((r) => (firstPiece = r));
    let drained!: () => void;
    const putDone = new Promise<void>((r) => (drained = r));
    const { calls, call } = fakeEfile(async (req) => {
      try {
        for await (const _ of req.stream!) {
          firstPiece();
          await new Promise((r) => setTimeout(r, 5));
        }
        return { code: '0', msg: '', data: { files: 1, skipped: [] } };
      } catch {
        // efile answers an error when the body breaks off
        return { code: '1012', msg: 'interrupted', data: null };
      } finally {
        drained();
      }
    });
    const { service, kv } = copyService(
      {
        rows: async () => [ROW],
        openRow: async () =>
          ({
            ...ROW,
            name: ROW.path,
            stream: Readable.from([BYTES.subarray(0, 1 << 20), BYTES.subarray(1 << 20)]),
          }) as never,
      },
      call,
    );

    const job = await service.start(7, 1, { clusterId: 'c1', parentPath: '/home/u', name: 'model' });
    await gotPiece;
    await service.cancel(7, job.jobId);
    await putDone;
    const final = await settled(service, job.jobId);
    expect(final.state).toBe('cancelled');
    expect(final.error).toBeNull();
    expect(calls.some((c) => c.path === '/rename.action')).toBe(false);
    const remove = calls.find((c) => c.path.startsWith('/remove.action'));
    expect(remove?.form?.paths).toEqual([expect.stringMatching(/^\/home\/u\/\.model\.copy-/)]);
    // The lock is gone: the next copy may start.
    expect(await kv.get('model-copy:lock:7')).toBeNull();
    // Another user cannot see it.
    await expect(service.progress(8, job.jobId)).rejects.toMatchObject({ code: '404' });
    await kv.close();
  });

  it('refuses a second copy while the user has one running (spec §4), before touching efile', async () => {
    const kv = new MemoryKv();
    const calls: string[] = [];
    const service = new ModelCopyService({
      files: { rows: async () => [ROW] } as unknown as ModelFilesService,
      kv,
      now: Date.now,
      efileInfo: async () => ({
        clusterId: 'c1',
        efileUrl: '/e',
        efileUrls: ['/e'],
        homePath: '/h',
        username: 'u',
      }),
      clusterToken: async () => 't',
      call: (async (_b: string, req: EfileRequest) => {
        calls.push(req.path);
        if (req.path === '/check.action') return { check_result: 'ok' };
        return { code: '0', msg: '', data: { exist: false, isDirectory: false } };
      }) as unknown as EfileCaller,
      warn: () => undefined,
    });
    await kv.set('model-copy:lock:7', 'running-job', 60_000);
    await expect(service.start(7, 1, { clusterId: 'c1', parentPath: '/h', name: 'm' })).rejects.toMatchObject(
      {
        code: 'OPERATION_LIMIT',
      },
    );
    expect(calls.some((p) => p.startsWith('/linuxUpload'))).toBe(false);
    expect(await kv.get('model-copy:lock:7')).toBe('running-job');
    await kv.close();
  });
});

/** The archive itself: what efile's tar reader (tar-stream's extract) gets from a finished copy. */
describe('model copy archive', () => {
  it('sends the staging folder and every file whole, a name over 100 bytes included, then renames it', async () => {
    const long = `${'deep/'.repeat(30)}shard-00001.safetensors`;
    const small = Buffer.from('{"architectures":["Qwen2"]}');
    const rows = [
      ROW,
      {
        ...ROW,
        path: long,
        size: small.length,
        sha256: crypto.createHash('sha256').update(small).digest('hex'),
      },
    ];
    const bodyOf = (path: string) => (path === ROW.path ? BYTES : small);
    const entries: { name: string; type: string; data: Buffer }[] = [];
    const { calls, call } = fakeEfile(async (req) => {
      const extract = tar.extract();
      extract.on('entry', (header, stream, next) => {
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('end', () => {
          entries.push({ name: header.name, type: header.type ?? '', data: Buffer.concat(parts) });
          next();
        });
      });
      await new Promise<void>((resolve, reject) => {
        extract.on('finish', resolve).on('error', reject);
        req.stream!.pipe(extract);
      });
      return {
        code: '0',
        msg: '',
        data: { files: entries.filter((e) => e.type === 'file').length, skipped: [] },
      };
    });
    const { service, kv } = copyService(
      {
        rows: async () => rows,
        openRow: async (row: typeof ROW) =>
          ({ ...row, name: row.path, stream: Readable.from([bodyOf(row.path)]) }) as never,
      },
      call,
    );
    const job = await service.start(7, 1, { clusterId: 'c1', parentPath: '/home/u', name: 'model' });
    const final = await settled(service, job.jobId);
    expect(final).toMatchObject({ state: 'success', error: null, filesDone: 2 });
    const [dir, ...rest] = entries;
    // tar-stream writes the folder as `name/` and reads it back without the slash.
    expect(dir).toMatchObject({ type: 'directory', name: expect.stringMatching(/^\.model\.copy-[^/]+$/) });
    const stage = `${dir!.name}/`;
    expect(rest.map((e) => [e.name, e.type])).toEqual([
      [`${stage}${ROW.path}`, 'file'],
      [`${stage}${long}`, 'file'],
    ]);
    expect(rest[0]!.data.equals(BYTES)).toBe(true);
    expect(rest[1]!.data.equals(small)).toBe(true);
    expect(calls.find((c) => c.path === '/rename.action')?.form).toMatchObject({ newName: 'model' });
    await kv.close();
  });

  it('closes the stored file and ends in error when efile drops the body halfway', async () => {
    const big = Buffer.alloc(64 * 1024, 1);
    const chunks = Array.from({ length: 256 }, () => big); // 16 MiB: far more than the pipes buffer
    const row = {
      ...ROW,
      size: big.length * chunks.length,
      sha256: chunks.reduce((h, c) => h.update(c), crypto.createHash('sha256')).digest('hex'),
    };
    const stored = Readable.from(chunks);
    const { call } = fakeEfile(async (req) => {
      // Reads one piece, then drops the body, as a failing efile or a cut connection does.
      for await (const _ of req.stream!) break;
      return { code: '1012', msg: 'interrupted', data: null };
    });
    const { service, kv } = copyService(
      {
        rows: async () => [row],
        openRow: async () => ({ ...row, name: row.path, stream: stored }) as never,
      },
      call,
    );
    const job = await service.start(7, 1, { clusterId: 'c1', parentPath: '/home/u', name: 'model' });
    const final = await settled(service, job.jobId);
    expect(final.state).toBe('error');
    while (!stored.destroyed) await new Promise((r) => setTimeout(r, 10));
    expect(stored.destroyed).toBe(true);
    await kv.close();
  });
});
