import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LINUX_TOKEN_HEADER } from '@hpc/contracts';
import type { Kysely } from 'kysely';
import { migrate, openDb } from '@hpc/server-kit';
import { makeTempDir } from '@hpc/server-kit/testing';
import { injectAs, makeHarness, type Harness } from '../../efile.test-fixture';
import { migrations } from '../../db/migrations';
import { postChunk, type ChunkTarget } from '../upload/chunk-client.test-fixture';
import { partialCore, partialName } from '.';
import { partialRepository } from './partial.repository';

const HOME = '/public/home/demo';
const RANGE = 64 * 1024;
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const DAY = 24 * 3600_000;

describe('the partial-file core', () => {
  let h: Harness;
  let token: string;
  let base: string;
  const call = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    injectAs(h, token, method, url, payload);
  const partials = (dir: string) => fs.readdirSync(h.host(dir)).filter((n) => n.endsWith('.efile-part'));

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await h.close();
  });

  it('writes the ranges of a file through one kept-open partial', async () => {
    const data = crypto.randomBytes(4 * RANGE + 7);
    const file = { path: `${HOME}/kept/one.bin`, size: data.length, identifier: 'k1' };
    const begin = await call('POST', '/fastrans/begin.action', { files: [file], rangeSize: RANGE });
    const id = begin.json().data.files[0].id as string;
    const opens = vi.spyOn(h.deps.userfs, 'openPartial');
    for (let n = 0; n < 5; n++) {
      const part = data.subarray(n * RANGE, (n + 1) * RANGE);
      const put = await call('PUT', `/fastrans/range.action?id=${id}&n=${n}&sha256=${sha(part)}`, part);
      expect(put.json().code).toBe('0');
    }
    // One open for five ranges (before the core: five opens and five closes, each a worker request in unix mode).
    expect(opens).toHaveBeenCalledTimes(1);
    opens.mockRestore();
    const fin = await call('POST', '/fastrans/finalize.action', { id, sha256: sha(data) });
    expect(fin.json()).toMatchObject({ code: '0', data: { size: data.length } });
    expect(fs.readFileSync(h.host(`${HOME}/kept/one.bin`)).equals(data)).toBe(true);
    expect(partials(`${HOME}/kept`)).toEqual([]);
    // The kept-open descriptor is of the published file now: a range sent again writes nothing into it.
    const again = Buffer.alloc(RANGE, 1);
    expect(
      (await call('PUT', `/fastrans/range.action?id=${id}&n=0&sha256=${sha(again)}`, again)).json(),
    ).toMatchObject({ code: '0', data: { stored: 5, total: 5 } });
    expect(fs.readFileSync(h.host(`${HOME}/kept/one.bin`)).equals(data)).toBe(true);
  });

  it('never writes a range that read its session before a finalize ended, into either file', async () => {
    // A range sent again (other bytes, their own correct digest) reads the session while it is active, then waits
    // (here: at its range lock) while a finalize publishes the file. When it goes on, the file is no longer a
    // partial: nothing may be written, neither into the published file (another instance may hold it open) nor
    // into a partial made anew under the old name.
    const data = crypto.randomBytes(2 * RANGE);
    const other = crypto.randomBytes(RANGE);
    const file = { path: `${HOME}/race/f.bin`, size: data.length, identifier: 'race' };
    const begin = await call('POST', '/fastrans/begin.action', { files: [file], rangeSize: RANGE });
    const id = begin.json().data.files[0].id as string;
    for (let n = 0; n < 2; n++) {
      const part = data.subarray(n * RANGE, (n + 1) * RANGE);
      const put = await call('PUT', `/fastrans/range.action?id=${id}&n=${n}&sha256=${sha(part)}`, part);
      expect(put.json().code).toBe('0');
    }
    let finalized!: () => void;
    const published = new Promise<void>((r) => (finalized = r));
    let paused!: () => void;
    const waiting = new Promise<void>((r) => (paused = r));
    const kv = h.deps.kv;
    const setIfAbsent = kv.setIfAbsent.bind(kv);
    const spy = vi.spyOn(kv, 'setIfAbsent').mockImplementation(async (key, value, ttl) => {
      if (key === `fastrans:range:${id}:0`) {
        paused();
        await published;
      }
      return setIfAbsent(key, value, ttl);
    });
    try {
      const resend = call('PUT', `/fastrans/range.action?id=${id}&n=0&sha256=${sha(other)}`, other);
      await waiting;
      const fin = await call('POST', '/fastrans/finalize.action', { id, sha256: sha(data) });
      expect(fin.json()).toMatchObject({ code: '0', data: { size: data.length } });
      finalized();
      expect((await resend).json()).toMatchObject({ code: '0', data: { stored: 2, total: 2 } });
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(h.host(file.path)).equals(data)).toBe(true);
    expect(partials(`${HOME}/race`)).toEqual([]);
  });

  it('one sweep removes stale sessions of both kinds and the staging folders a crashed tar upload left', async () => {
    // A chunk upload and a fast-transfer file, both abandoned half-way.
    const t: ChunkTarget = {
      base,
      token,
      path: `${HOME}/sw`,
      relativePath: 'chunked.bin',
      data: crypto.randomBytes(3 * RANGE),
      chunkSize: RANGE,
    };
    fs.mkdirSync(h.host(`${HOME}/sw`));
    expect((await postChunk(t, 2)).status).toBe(200);
    const file = { path: `${HOME}/sw/ranged.bin`, size: 2 * RANGE, identifier: 'r1' };
    expect(
      (await call('POST', '/fastrans/begin.action', { files: [file], rangeSize: RANGE })).json().code,
    ).toBe('0');
    expect(partials(`${HOME}/sw`)).toHaveLength(2);

    // A tar upload into `tar/` whose efile was killed: its record stayed, and so did its staging folder. Beside
    // it: a staging folder of an extraction running now, a link named like a staging folder (to a stale folder),
    // and a stale folder of another name.
    const core = partialCore(h.deps);
    const tarDir = h.host(`${HOME}/tar`);
    fs.mkdirSync(tarDir);
    await core.stage({ sub: 'u-demo', cun: 'demo' }, { clusterPath: `${HOME}/tar`, host: tarDir });
    const old = new Date(Date.now() - 2 * DAY);
    const folder = (name: string, age?: Date) => {
      fs.mkdirSync(path.join(tarDir, name));
      fs.writeFileSync(path.join(tarDir, name, '0'), 'x');
      if (age) fs.utimesSync(path.join(tarDir, name), age, age);
    };
    folder('.tar.0123456789ab.efile-part', old);
    folder('.tar.ba9876543210.efile-part');
    folder('mine', old);
    fs.symlinkSync('mine', path.join(tarDir, '.tar.aaaaaaaaaaaa.efile-part'));

    // Nothing is stale yet.
    expect(await core.sweep(Date.now())).toBe(0);
    expect(partials(`${HOME}/sw`)).toHaveLength(2);
    // Every session last marked alive two days ago.
    await h.deps.db
      .updateTable('efile_partials')
      .set({ updated_at: Date.now() - 2 * DAY })
      .where('status', '=', 'active')
      .execute();
    const kinds = await h.deps.db
      .selectFrom('efile_partials')
      .select('kind')
      .where('status', '=', 'active')
      .execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual(['chunk', 'range', 'tar']);
    expect(await core.sweep(Date.now())).toBe(3);
    expect(partials(`${HOME}/sw`)).toEqual([]);
    expect(
      await h.deps.db.selectFrom('efile_partials').select('id').where('status', '=', 'active').execute(),
    ).toEqual([]);
    expect(fs.readdirSync(tarDir).sort()).toEqual([
      '.tar.aaaaaaaaaaaa.efile-part',
      '.tar.ba9876543210.efile-part',
      'mine',
    ]);
    expect(fs.lstatSync(path.join(tarDir, '.tar.aaaaaaaaaaaa.efile-part')).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(path.join(tarDir, 'mine'))).toEqual(['0']);
    core.close();
  });

  it('records a chunk only for the session it was written for, not one begun anew under the same id', async () => {
    const repo = partialRepository(h.deps.db);
    const row = {
      id: 'gen-test',
      kind: 'chunk' as const,
      owner_sub: 'u-demo',
      owner_cun: 'demo',
      target: `${HOME}/gen.bin`,
      identifier: 'x',
      size: 2,
      piece_size: 1,
      total_pieces: 2,
      partial_host: h.host(`${HOME}/.gen.bin.efile-part`),
      overwrite: 0,
      status: 'active',
      created_at: 1000,
      updated_at: 1000,
    };
    await repo.create(row);
    expect(await repo.addChunkOf('gen-test', 1000, 1)).toBe(true);
    expect(await repo.addChunkOf('gen-test', 1000, 1)).toBe(true); // sent again: still recorded
    // Ended and begun anew under the same id: a chunk written for the old one is not the new one's.
    await repo.remove('gen-test');
    await repo.create({ ...row, created_at: 2000, updated_at: 2000 });
    expect(await repo.addChunkOf('gen-test', 1000, 2)).toBe(false);
    expect(await repo.pieces('gen-test')).toEqual([]);
    await repo.remove('gen-test');
  });

  it('a tar upload records its folder only while it runs', async () => {
    const cmd = await h.app.inject({
      method: 'GET',
      url: `/linuxUpload.action?path=${HOME}/tar`,
      headers: { token },
    });
    expect(cmd.json().code).toBe('0');
    const tok = cmd.json().data.token as string;
    const tarBody = execFileSync('tar', ['-c', '-C', h.host(HOME), 'kept']);
    const put = await h.app.inject({
      method: 'PUT',
      url: '/linux/tar',
      headers: { 'content-type': 'application/octet-stream', [LINUX_TOKEN_HEADER]: tok },
      payload: tarBody,
    });
    expect(put.json()).toMatchObject({ code: '0' });
    expect(fs.existsSync(path.join(h.host(`${HOME}/tar`), 'kept/one.bin'))).toBe(true);
    expect(
      await h.deps.db.selectFrom('efile_partials').select('id').where('kind', '=', 'tar').execute(),
    ).toEqual([]);
  });
});

describe('partials left from before the core', () => {
  it('are swept after the upgrade, of both kinds, by the names they had', async () => {
    // A database of the release before (migrations up to 005) with an abandoned browser upload and an abandoned
    // fast-transfer file, and their partials on disk; then this release starts on it (migration 006) and sweeps.
    const { dir } = makeTempDir('efile-');
    const home = path.join(dir, 'root/public/home/demo');
    fs.mkdirSync(home, { recursive: true });
    const chunkId = 'c'.repeat(40);
    const rangeId = 'f'.repeat(40);
    const chunkPartial = path.join(home, partialName('a.bin', chunkId));
    const rangePartial = path.join(home, partialName('b.bin', rangeId));
    fs.writeFileSync(chunkPartial, 'x');
    fs.writeFileSync(rangePartial, 'y');
    fs.writeFileSync(path.join(home, 'keep.bin'), 'z');
    const db = await openDb<unknown>({ url: path.join(dir, 'efile.db') });
    await migrate(db, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '006')));
    const old = db.kysely as Kysely<Record<string, Record<string, unknown>>>;
    const at = Date.now() - 2 * DAY;
    const common = {
      owner_sub: 'u-demo',
      owner_cun: 'demo',
      status: 'active',
      created_at: at,
      updated_at: at,
    };
    await old
      .insertInto('efile_uploads')
      .values({
        ...common,
        id: chunkId,
        target: `${HOME}/a.bin`,
        identifier: '1-a.bin',
        total_size: 1,
        chunk_size: 1,
        total_chunks: 1,
        partial_host: chunkPartial,
      })
      .execute();
    await old
      .insertInto('efile_fastrans_files')
      .values({
        ...common,
        id: rangeId,
        target: `${HOME}/b.bin`,
        size: 1,
        range_size: 1,
        total_ranges: 1,
        partial_host: rangePartial,
        overwrite: 0,
      })
      .execute();
    await db.close();

    const h = await makeHarness({ dir });
    try {
      const core = partialCore(h.deps);
      expect(await core.sweep(Date.now())).toBe(2);
      expect(fs.readdirSync(home)).toEqual(['keep.bin']);
      core.close();
    } finally {
      await h.close();
    }
  });
});
