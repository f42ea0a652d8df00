import fs from 'node:fs';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';
import { chunkParams, postChunk, testChunk, type ChunkTarget } from './chunk-client.test-fixture';
import { totalChunks } from '@hpc/contracts';
import { testDbTargets } from '@hpc/server-kit/testing';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (r: Response): Promise<any> => r.json();
const chunkParamsEqual = (a: ChunkTarget, b: ChunkTarget) =>
  chunkParams(a, 1).identifier === chunkParams(b, 1).identifier;
const listAll = (dir: string) => fs.readdirSync(dir, { recursive: true }) as string[];

describe.each(testDbTargets())('chunked upload ($name)', (db) => {
  let h: Harness;
  let token: string;
  let base: string;
  const target = (relativePath: string, size: number, extra?: Record<string, string>): ChunkTarget => ({
    base,
    token,
    path: '/public/home/demo',
    relativePath,
    data: crypto.randomBytes(size),
    chunkSize: 64 * 1024,
    extra,
  });

  beforeAll(async () => {
    h = await makeHarness({ db, env: { EFILE_MAX_CHUNK_SIZE: String(256 * 1024) } });
    token = await h.token();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => h.close());

  it('three chunks arriving at once in any order make the right file; partials stay hidden', async () => {
    const t = target('三块.bin', 3 * 64 * 1024 + 1000);
    expect((await testChunk(t, 2)).status).toBe(204);
    const rs = await Promise.all([postChunk(t, 3), postChunk(t, 1), postChunk(t, 2)]);
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    const bodies = await Promise.all(rs.map(json));
    expect(bodies.some((b) => b.data.complete)).toBe(true);
    expect(fs.readFileSync(h.home + '/三块.bin').equals(t.data)).toBe(true);
    expect(listAll(h.home).filter((n) => n.includes('efile-part'))).toEqual([]);
    // Finalized: merge is idempotent; a new upload of the same name is a conflict, not "already stored".
    const again = await testChunk(t, 1);
    expect([again.status, (await json(again)).code]).toEqual([415, '1021']);
    const merge = await h.app.inject({
      method: 'POST',
      url: '/merge.action',
      headers: { token, ...FORM },
      payload: form({ path: t.path, relativePath: t.relativePath, identifier: `${t.data.length}-bin` }),
    });
    expect(merge.json()).toMatchObject({ code: '0', data: { path: '/public/home/demo/三块.bin' } });
  });

  it('writes a same-size file uploaded again with overwrite: the identifier is not the content', async () => {
    const first = target('edited.txt', 2 * 64 * 1024);
    for (const n of [1, 2]) expect((await postChunk(first, n)).status).toBe(200);
    const edited = { ...first, data: crypto.randomBytes(first.data.length), extra: { overwrite: 'true' } };
    expect(chunkParamsEqual(first, edited)).toBe(true); // same identifier, other bytes
    for (const n of [1, 2]) expect((await testChunk(edited, n)).status).toBe(204);
    const rs = await Promise.all([postChunk(edited, 2), postChunk(edited, 1)]);
    expect((await Promise.all(rs.map(json))).some((b) => b.data.complete)).toBe(true);
    expect(fs.readFileSync(h.home + '/edited.txt').equals(edited.data)).toBe(true);
    expect(listAll(h.home).filter((n) => n.includes('efile-part'))).toEqual([]);
  });

  it('resumes from stored chunks, reports them in one status call, and finalizes via merge', async () => {
    const t = target('resume.bin', 4 * 64 * 1024);
    await postChunk(t, 1);
    await postChunk(t, 3);
    const partials = fs.readdirSync(h.home).filter((n) => n.endsWith('.efile-part'));
    expect(partials).toHaveLength(1);
    expect(partials[0]).toMatch(/^\.resume\.bin\.[0-9a-f]{12}\.efile-part$/);
    const list = await h.app.inject({
      method: 'GET',
      url: '/list.action?path=/public/home/demo&showHidden=true',
      headers: { token },
    });
    expect(list.body).not.toContain('efile-part');
    const identifier = `${t.data.length}-resumebin`;
    const st = await h.app.inject({
      method: 'GET',
      url: `/upload/chunkStatus.action?path=/public/home/demo&relativePath=resume.bin&identifier=${identifier}`,
      headers: { token },
    });
    expect(st.json().data).toEqual({ stored: [1, 3], totalChunks: 4, complete: false });
    expect((await testChunk(t, 1)).status).toBe(200);
    expect((await testChunk(t, 2)).status).toBe(204);
    const early = await h.app.inject({
      method: 'POST',
      url: '/merge.action',
      headers: { token },
      payload: { path: t.path, relativePath: 'resume.bin', identifier },
    });
    expect(early.json().code).toBe('1003');
    await postChunk(t, 2);
    await postChunk(t, 4);
    const merge = await h.app.inject({
      method: 'POST',
      url: '/merge.action',
      headers: { token },
      payload: { path: t.path, relativePath: 'resume.bin', identifier },
    });
    expect(merge.json()).toMatchObject({
      code: '0',
      data: { path: '/public/home/demo/resume.bin', size: t.data.length },
    });
    expect(fs.readFileSync(h.home + '/resume.bin').equals(t.data)).toBe(true);
  });

  it('reports a same-name file (1021, permanent 415) unless overwrite, and refuses oversize chunks (1011)', async () => {
    fs.writeFileSync(h.home + '/exists.txt', 'old');
    const t = target('exists.txt', 1000);
    const r = await postChunk(t, 1);
    expect(r.status).toBe(415);
    expect((await json(r)).code).toBe('1021');
    expect(fs.readFileSync(h.home + '/exists.txt', 'utf8')).toBe('old');
    expect((await testChunk(t, 1)).status).toBe(415);
    const o = await postChunk({ ...t, extra: { overwrite: 'true' } }, 1);
    expect(o.status).toBe(200);
    expect(fs.readFileSync(h.home + '/exists.txt').equals(t.data)).toBe(true);
    const big = await postChunk({ ...target('big.bin', 600 * 1024), chunkSize: 300 * 1024 }, 1);
    expect(big.status).toBe(415);
    expect((await json(big)).code).toBe('1011');
    const missing = await postChunk({ ...target('x.bin', 10), path: '/public/home/demo/nope' }, 1);
    expect(missing.status).toBe(404);
  });

  it('keeps a finished upload whose name was taken meanwhile: the retry with overwrite sends no chunk again', async () => {
    const t = target('late.bin', 3 * 64 * 1024);
    for (const n of [1, 2]) expect((await postChunk(t, n)).status).toBe(200);
    // Someone makes the name while the last chunk is on its way.
    fs.writeFileSync(h.home + '/late.bin', 'theirs');
    const last = await postChunk(t, 3);
    expect([last.status, (await json(last)).code]).toEqual([415, '1021']);
    expect(fs.readFileSync(h.home + '/late.bin', 'utf8')).toBe('theirs');
    // The partial is still there, whole and hidden, and every chunk counts as stored for a retry with overwrite.
    expect(listAll(h.home).filter((n) => n.includes('efile-part'))).toHaveLength(1);
    const cover = { ...t, extra: { overwrite: 'true' } };
    for (const n of [1, 2, 3]) expect((await testChunk(cover, n)).status).toBe(200);
    const merge = await h.app.inject({
      method: 'POST',
      url: '/merge.action',
      headers: { token, ...FORM },
      payload: form({
        path: t.path,
        relativePath: t.relativePath,
        identifier: String(chunkParams(t, 1).identifier),
        overwrite: 'true',
      }),
    });
    expect(merge.json()).toMatchObject({ code: '0', data: { path: '/public/home/demo/late.bin' } });
    expect(fs.readFileSync(h.home + '/late.bin').equals(t.data)).toBe(true);
    expect(listAll(h.home).filter((n) => n.includes('efile-part'))).toEqual([]);
  });

  it('uploads folders with their relative paths, refuses >1000-file folders and bad names', async () => {
    const t = target('项目/src/main.py', 70 * 1024, { folderFileCount: '3' });
    for (let n = 1; n <= totalChunks(t.data.length, t.chunkSize); n++)
      expect((await postChunk(t, n)).status).toBe(200);
    expect(fs.readFileSync(h.home + '/项目/src/main.py').equals(t.data)).toBe(true);
    const many = await postChunk(target('huge/a.txt', 10, { folderFileCount: '1001' }), 1);
    expect(many.status).toBe(415);
    expect((await json(many)).code).toBe('1508');
    const dots = await postChunk(target('../escape.txt', 10), 1);
    expect((await json(dots)).code).toBe('1029');
    expect(fs.existsSync(h.home + '/../escape.txt')).toBe(false);
  });

  it('deletes an unfinished upload with its partial file, and sweeps abandoned ones', async () => {
    const a = target('cancel.bin', 3 * 64 * 1024);
    await postChunk(a, 1);
    expect(fs.readdirSync(h.home).some((n) => n.startsWith('.cancel.bin.'))).toBe(true);
    const del = await h.app.inject({
      method: 'POST',
      url: '/upload/deletePartial.action',
      headers: { token, ...FORM },
      payload: form({ paths: ['/public/home/demo/cancel.bin'], clusterId: 'c1' }),
    });
    expect(del.json()).toMatchObject({ code: '0', data: { deleted: 1 } });
    expect(fs.readdirSync(h.home).some((n) => n.startsWith('.cancel.bin.'))).toBe(false);
    const b = target('abandoned.bin', 3 * 64 * 1024);
    await postChunk(b, 2);
    const { uploadService } = await import('./upload.service');
    const { partialCore } = await import('../partial');
    const svc = uploadService(h.deps, partialCore(h.deps));
    expect(await svc.sweep(Date.now())).toBe(0);
    expect(await svc.sweep(Date.now() + 25 * 3600_000)).toBeGreaterThan(0);
    expect(fs.readdirSync(h.home).filter((n) => n.endsWith('.efile-part'))).toEqual([]);
  });
});

describe('upload liveness for the sweep', () => {
  it('refreshes updated_at at most once a minute while chunks arrive', async () => {
    let now = 1_800_000_000_000;
    const h = await makeHarness({ now: () => now });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const t: ChunkTarget = {
      base: `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`,
      token: await h.token(),
      path: '/public/home/demo',
      relativePath: 'alive.bin',
      data: crypto.randomBytes(4 * 64 * 1024),
      chunkSize: 64 * 1024,
    };
    const updatedAt = async () =>
      Number(
        (
          await h.deps.db
            .selectFrom('efile_partials')
            .select('updated_at')
            .where('kind', '=', 'chunk')
            .executeTakeFirstOrThrow()
        ).updated_at,
      );
    await postChunk(t, 1);
    now += 30_000;
    await postChunk(t, 2);
    expect(await updatedAt()).toBe(1_800_000_000_000);
    now += 31_000;
    await postChunk(t, 3);
    expect(await updatedAt()).toBe(1_800_000_061_000);
    await h.close();
  });
});

describe('upload resumes after a restart', () => {
  it('keeps stored chunks across a new process on the same database', async () => {
    const h1 = await makeHarness();
    const dir = h1.dir;
    await h1.app.listen({ port: 0, host: '127.0.0.1' });
    const t: ChunkTarget = {
      base: `http://127.0.0.1:${(h1.app.server.address() as { port: number }).port}`,
      token: await h1.token(),
      path: '/public/home/demo',
      relativePath: 'restart.bin',
      data: crypto.randomBytes(3 * 64 * 1024),
      chunkSize: 64 * 1024,
    };
    await postChunk(t, 1);
    await postChunk(t, 2);
    await h1.close(true);
    const h2 = await makeHarness({ dir });
    await h2.app.listen({ port: 0, host: '127.0.0.1' });
    const t2 = {
      ...t,
      base: `http://127.0.0.1:${(h2.app.server.address() as { port: number }).port}`,
      token: await h2.token(),
    };
    expect((await testChunk(t2, 2)).status).toBe(200);
    expect((await postChunk(t2, 3)).status).toBe(200);
    expect(fs.readFileSync(h2.home + '/restart.bin').equals(t.data)).toBe(true);
    await h2.close();
  });
});
