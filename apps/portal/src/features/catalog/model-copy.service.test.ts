import { Readable } from 'node:stream';
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LINUX_TOKEN_HEADER } from '@hpc/contracts';
import { MemoryKv } from '@hpc/server-kit';
import tar from 'tar-stream';
import { efileCallsOver } from '../../efile-client';
import { ModelCopyService, type ModelCopyDeps } from './model-copy.service';
import type { ModelFilesService } from './model-files';

const BYTES = Buffer.alloc(3 * 1024 * 1024, 7);
const ROW = {
  item_id: 1,
  path: 'weights.bin',
  stored_path: 'x',
  size: BYTES.length,
  sha256: crypto.createHash('sha256').update(BYTES).digest('hex'),
};

/** One request the fake efile got, as efile's routes read it. */
interface FakeRequest {
  method: string;
  /** Below the instance's base (`/check.action`, `/linux/tar`). */
  path: string;
  query: URLSearchParams;
  token: string | undefined;
  /** The Linux commands' scoped token (LINUX_TOKEN_HEADER). */
  linuxToken: string | undefined;
  /** The `Accept-Language` the portal sent. */
  lang: string | undefined;
  /** A form body's fields, each as the list of its values. */
  form?: Record<string, string[]>;
  /** A streamed body (the tar PUT). */
  stream?: Readable;
}

const BASE = 'http://efile.test/efile/c1';

/**
 * An efile behind a fake `fetch` that answers the copy's calls the way a real one does (check, exist, the scoped
 * Linux-upload token) and hands the tar PUT to `onPut`; every request is recorded. The copy's calls go through the
 * real typed client (`efileCallsOver`), so paths, methods and bodies are those the route table declares.
 */
function fakeEfile(
  onPut: (req: FakeRequest) => Promise<unknown> = async () => null,
  onExist?: (req: FakeRequest) => { answer: unknown; lang: string },
) {
  const calls: FakeRequest[] = [];
  const fetcher = (async (input: string, init: RequestInit = {}) => {
    const url = new URL(input);
    const headers = (init.headers ?? {}) as Record<string, string>;
    const req: FakeRequest = {
      method: init.method ?? 'GET',
      path: url.pathname.slice(new URL(BASE).pathname.length),
      query: url.searchParams,
      token: headers.token,
      linuxToken: headers[LINUX_TOKEN_HEADER],
      lang: headers['accept-language'],
    };
    if (typeof init.body === 'string') {
      const fields = new URLSearchParams(init.body);
      req.form = Object.fromEntries([...fields.keys()].map((k) => [k, fields.getAll(k)]));
    }
    if (init.body instanceof ReadableStream) {
      const stream = Readable.fromWeb(init.body as never);
      req.stream = stream;
      // A cancelled call ends its body, as fetch does.
      init.signal?.addEventListener('abort', () => stream.destroy(new Error('aborted')), { once: true });
    }
    calls.push(req);
    let answer: unknown = { code: '0', msg: '', data: null };
    let contentLanguage: string | undefined;
    if (req.path === '/exist.action' && onExist) ({ answer, lang: contentLanguage } = onExist(req));
    else if (req.path === '/check.action') answer = { check_result: 'ok', clusterId: 'c1' };
    else if (req.path === '/exist.action')
      answer = { code: '0', msg: '', data: { exist: false, isDirectory: false } };
    else if (req.path === '/linuxUpload.action') answer = { code: '0', msg: '', data: { token: 'scoped' } };
    else if (req.method === 'PUT') answer = await onPut(req);
    if (init.signal?.aborted) throw new DOMException('The operation was aborted', 'AbortError');
    return Response.json(answer, contentLanguage ? { headers: { 'content-language': contentLanguage } } : {});
  }) as unknown as typeof fetch;
  const efile = (
    base: string,
    clusterId: string,
    token: string | undefined,
    timeoutMs: number,
    lang?: string,
  ) => efileCallsOver(fetcher, base, clusterId, token, timeoutMs, lang);
  return { calls, efile };
}

/** The service under test for user 7 on cluster c1 (home /home/u), with the given stored files and efile. */
function copyService(files: Partial<ModelFilesService>, efile: ModelCopyDeps['efile']) {
  const kv = new MemoryKv();
  /** The upload commands revoked, and the sessions the cluster tokens were asked for. */
  const revoked: string[] = [];
  const sids: (string | undefined)[] = [];
  const service = new ModelCopyService({
    files: files as ModelFilesService,
    kv,
    now: Date.now,
    efileInfo: async () => ({
      clusterId: 'c1',
      efileUrl: BASE,
      efileUrls: [BASE],
      homePath: '/home/u',
      username: 'u',
    }),
    clusterToken: async (_user, _cluster, sid) => {
      sids.push(sid);
      return 'cluster-token';
    },
    revokeCommand: async (_user, secret) => revoked.push(secret),
    efile,
    warn: () => undefined,
  });
  return { service, kv, revoked, sids };
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
    const { calls, efile } = fakeEfile(async (req) => {
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
    const { service, kv, revoked } = copyService(
      {
        rows: async () => [ROW],
        openRow: async () =>
          ({
            ...ROW,
            name: ROW.path,
            stream: Readable.from([BYTES.subarray(0, 1 << 20), BYTES.subarray(1 << 20)]),
          }) as never,
      },
      efile,
    );

    const job = await service.start(7, 1, { clusterId: 'c1', parentPath: '/home/u', name: 'model' });
    await gotPiece;
    await service.cancel(7, job.jobId);
    await putDone;
    const final = await settled(service, job.jobId);
    expect(final.state).toBe('cancelled');
    expect(final.error).toBeNull();
    expect(revoked).toEqual(['scoped']);
    expect(calls.some((c) => c.path === '/rename.action')).toBe(false);
    const remove = calls.find((c) => c.path === '/remove.action');
    expect(remove?.form?.paths).toEqual([expect.stringMatching(/^\/home\/u\/\.model\.copy-/)]);
    // The lock is gone: the next copy may start.
    expect(await kv.get('model-copy:lock:7')).toBeNull();
    // Another user cannot see it.
    await expect(service.progress(8, job.jobId)).rejects.toMatchObject({ code: '404' });
    await kv.close();
  });

  it('refuses a second copy while the user has one running (spec §4), before touching efile', async () => {
    const { calls, efile } = fakeEfile();
    const { service, kv } = copyService({ rows: async () => [ROW] }, efile);
    await kv.set('model-copy:lock:7', 'running-job', 60_000);
    await expect(
      service.start(7, 1, { clusterId: 'c1', parentPath: '/home/u', name: 'm' }),
    ).rejects.toMatchObject({
      code: 'OPERATION_LIMIT',
    });
    expect(calls.some((c) => c.path === '/linuxUpload.action')).toBe(false);
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
    const { calls, efile } = fakeEfile(async (req) => {
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
    const { service, kv, revoked, sids } = copyService(
      {
        rows: async () => rows,
        openRow: async (row: typeof ROW) =>
          ({ ...row, name: row.path, stream: Readable.from([bodyOf(row.path)]) }) as never,
      },
      efile,
    );
    const job = await service.start(
      7,
      1,
      { clusterId: 'c1', parentPath: '/home/u', name: 'model' },
      undefined,
      'sess-1',
    );
    const final = await settled(service, job.jobId);
    expect(final).toMatchObject({ state: 'success', error: null, filesDone: 2 });
    // Its upload command revoked once the copy ended (not left valid until midnight); every cluster token it
    // asked for was for the session that started it (ending that session for safety ends the copy's rights).
    expect(revoked).toEqual(['scoped']);
    expect(new Set(sids)).toEqual(new Set(['sess-1']));
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
    expect(calls.find((c) => c.path === '/rename.action')?.form).toMatchObject({ newName: ['model'] });
    // The archive goes to the scoped token's tar route, never over what is there; the token in its header, not
    // in the URL, which access logs keep.
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/linux/tar',
      token: undefined,
      linuxToken: 'scoped',
    });
    expect(calls.find((c) => c.method === 'PUT')?.query.get('overwrite')).toBe('false');
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
    const { efile } = fakeEfile(async (req) => {
      // Reads one piece, then drops the body, as a failing efile or a cut connection does.
      for await (const _ of req.stream!) break;
      return { code: '1012', msg: 'interrupted', data: null };
    });
    const { service, kv } = copyService(
      {
        rows: async () => [row],
        openRow: async () => ({ ...row, name: row.path, stream: stored }) as never,
      },
      efile,
    );
    const job = await service.start(7, 1, { clusterId: 'c1', parentPath: '/home/u', name: 'model' });
    const final = await settled(service, job.jobId);
    expect(final.state).toBe('error');
    while (!stored.destroyed) await new Promise((r) => setTimeout(r, 10));
    expect(stored.destroyed).toBe(true);
    await kv.close();
  });

  it("answers a failed copy in the language each progress call asks for, efile's own words in English", async () => {
    // efile takes the archive but skips the file: the portal's own refusal, written in both languages.
    const { efile } = fakeEfile(async (req) => {
      for await (const _ of req.stream!);
      return { code: '0', msg: '', data: { files: 0, skipped: [ROW.path] } };
    });
    const { service, kv } = copyService(
      {
        rows: async () => [ROW],
        openRow: async () => ({ ...ROW, name: ROW.path, stream: Readable.from([BYTES]) }) as never,
      },
      efile,
    );
    const job = await service.start(7, 1, { clusterId: 'c1', parentPath: '/home/u', name: 'model' });
    expect((await settled(service, job.jobId)).state).toBe('error');
    expect((await service.progress(7, job.jobId, 'zh-CN,zh;q=0.9,en;q=0.8')).error).toEqual({
      code: '1028',
      msg: `未复制：${ROW.path}`,
      lang: 'zh-CN',
    });
    const english = { code: '1028', msg: `Not copied: ${ROW.path}`, lang: 'en-US' };
    expect((await service.progress(7, job.jobId, 'en-US')).error).toEqual(english);
    expect((await service.progress(7, job.jobId)).error).toEqual(english);
    expect((await service.cancel(7, job.jobId, 'zh-CN')).error?.lang).toBe('zh-CN');
    await kv.close();

    // A refusal relayed from efile is only in the words efile sent (English): said so, for the web to translate its code.
    const relayed = fakeEfile(async (req) => {
      for await (const _ of req.stream!);
      return { code: '1022', msg: 'Not a folder: /home/u/x', data: null };
    });
    const second = copyService(
      {
        rows: async () => [ROW],
        openRow: async () => ({ ...ROW, name: ROW.path, stream: Readable.from([BYTES]) }) as never,
      },
      relayed.efile,
    );
    const other = await second.service.start(7, 1, { clusterId: 'c1', parentPath: '/home/u', name: 'model' });
    await settled(second.service, other.jobId);
    expect((await second.service.progress(7, other.jobId, 'zh-CN')).error).toEqual({
      code: '1022',
      msg: 'Not a folder: /home/u/x',
      lang: 'en-US',
    });
    await second.kv.close();
  });

  it("asks efile in the user's language, and a refusal written in Chinese reaches the Chinese reader as it was", async () => {
    // efile refuses the target in the language it is asked in, as its envelope handler does.
    const refusal = (req: FakeRequest) =>
      req.lang?.startsWith('zh')
        ? { answer: { code: '1030', msg: '没有权限访问：/home/u', data: null }, lang: 'zh-CN' }
        : { answer: { code: '1030', msg: 'No permission for /home/u', data: null }, lang: 'en-US' };
    const { calls, efile } = fakeEfile(undefined, refusal);
    const { service, kv } = copyService({ rows: async () => [ROW] }, efile);
    const body = { clusterId: 'c1', parentPath: '/home/u', name: 'model' };
    const zh = await service.start(7, 1, body, 'zh-CN,zh;q=0.9').catch((e: unknown) => e);
    expect(calls.find((c) => c.path === '/exist.action')?.lang).toBe('zh-CN,zh;q=0.9');
    expect(zh).toMatchObject({
      code: '1030',
      zh: '没有权限访问：/home/u',
      message: 'Insufficient permission',
    });
    // In English: efile's English, as it came.
    const en = await service.start(7, 1, body, 'en-US').catch((e: unknown) => e);
    expect(en).toMatchObject({ code: '1030', zh: null, message: 'No permission for /home/u' });
    await kv.close();
  });
});
