import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, PostgresAdapter, sql, type Kysely, type KyselyPlugin } from 'kysely';
import { MemoryKv } from '@hpc/server-kit';
import { testDbTargets } from '@hpc/server-kit/testing';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';
import type { EfileDatabase } from '../../db/database';
import { shareRepository, type ShareRow } from './share.repository';
import { MAX_INCLUDE_PATHS, MAX_SHARES_PER_USER } from './share.service';

type Json<T = Record<string, unknown>> = { code: string; msg: string; data: T };
const HOME = '/public/home/demo';
const DAY = 86_400_000;

/** A share row of the demo user, written straight to the table (the limit's tests need thousands). */
const rowOf = (i: number, now: number): ShareRow => ({
  id: `bulk-${i}`,
  owner_sub: 'u-demo',
  owner_cun: 'demo',
  path: `${HOME}/bulk/${i}`,
  name: String(i),
  is_dir: 0,
  dev_ino: '1:1',
  code: 'abcd',
  roots: '[]',
  valid_days: 1,
  created_at: now - 1000 + (i % 1000),
  expires_at: now + DAY,
  closed_at: null,
});

async function insertRows(db: Kysely<EfileDatabase>, rows: ShareRow[]) {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('efile_shares')
      .values(rows.slice(i, i + 500))
      .execute();
}

describe.each(testDbTargets())('share queries ($name)', (target) => {
  let h: Harness;
  let token: string;
  const now = Date.now();
  const get = (url: string, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'GET', url, headers: { token, ...headers } });
  const open = async (p: string) => {
    const r = (await get(`/share/open.action?path=${encodeURIComponent(p)}&validDays=1&password=abcd`)).json<
      Json<{ shareId: string }>
    >();
    expect(r.code).toBe('0');
    return r.data.shareId;
  };
  const includes = async (...paths: string[]) =>
    (
      await get(
        `/share/isIncludeShareFile.action?${paths.map((p) => `paths=${encodeURIComponent(p)}`).join('&')}`,
      )
    ).json<Json>().data;
  const postgres = () => h.deps.db.getExecutor().adapter instanceof PostgresAdapter;

  beforeAll(async () => {
    h = await makeHarness({ db: target, now: () => now, kv: new MemoryKv() });
    token = await h.token();
    if (postgres()) {
      // A database made with a language's locale (glibc's en_US.UTF-8 as ICU's "shifted" here): punctuation is
      // ignored, so '/a/b.txt' sorts after '/a0', out of a range compared in the column's collation.
      await sql`CREATE COLLATION shifted (provider = icu, locale = 'en-u-ka-shifted')`.execute(h.deps.db);
      await sql`ALTER TABLE efile_shares ALTER COLUMN path TYPE text COLLATE shifted`.execute(h.deps.db);
    }
  });
  afterAll(() => h.close());

  it('finds and closes the shares at and under a path by its bytes, not the names that sort beside it', async () => {
    for (const d of ['a/共享', 'a0', 'a b']) fs.mkdirSync(`${h.home}/${d}`, { recursive: true });
    for (const f of ['a/b.txt', 'a.txt', 'a-b.txt']) fs.writeFileSync(`${h.home}/${f}`, f);
    const names = ['a', 'a/b.txt', 'a/共享', 'a0', 'a.txt', 'a-b.txt', 'a b'];
    const ids = new Map<string, string>();
    for (const n of names) ids.set(n, await open(`${HOME}/${n}`));

    expect(await includes(`${HOME}/a`)).toEqual({ include: true, shared: true, count: 3 });
    expect(await includes(`${HOME}/a/`)).toEqual({ include: true, shared: true, count: 3 });
    expect(await includes(`${HOME}/a0`)).toEqual({ include: true, shared: true, count: 1 });
    // Each share counted once, however many of the asked paths hold it.
    expect(await includes(`${HOME}/a`, `${HOME}/a/b.txt`, `${HOME}/a/b.txt`)).toEqual({
      include: true,
      shared: true,
      count: 3,
    });
    expect(await includes(HOME)).toEqual({ include: true, shared: false, count: 7 });
    expect(await includes('/')).toEqual({ include: true, shared: false, count: 7 });
    expect(await includes(`${HOME}/a/c`)).toEqual({ include: false, shared: false, count: 0 });

    const rn = await h.app.inject({
      method: 'POST',
      url: '/rename.action',
      headers: { token, ...FORM },
      payload: form({ path: `${HOME}/a`, newName: 'z' }),
    });
    expect(rn.json<Json>().code).toBe('0');
    const list = (await get('/share/list.action?pageSize=100')).json<
      Json<{ list: { shareId: string; status: string }[] }>
    >().data.list;
    const status = Object.fromEntries(
      names.map((n) => [n, list.find((s) => s.shareId === ids.get(n))?.status]),
    );
    expect(status).toEqual({
      a: 'closed',
      'a/b.txt': 'closed',
      'a/共享': 'closed',
      a0: 'valid',
      'a.txt': 'valid',
      'a-b.txt': 'valid',
      'a b': 'valid',
    });
  });

  it('reads and writes the share table through its indexes, never the whole table', async () => {
    const db = h.deps.db;
    // The statements the repository sends, compiled as the database receives them.
    const seen: CompiledQuery[] = [];
    const spy: KyselyPlugin = {
      transformQuery: (a) => {
        seen.push(db.getExecutor().compileQuery(a.node, a.queryId));
        return a.node;
      },
      transformResult: async (a) => a.result,
    };
    const repo = shareRepository(db.withPlugin(spy));
    await repo.closeUnder(`${HOME}/x`, now);
    await repo.openPathsOf('u-demo', now);
    await repo.countByOwner('u-demo');
    await repo.deleteEnded('u-nobody', now, 5);
    await repo.listByOwner('u-demo', 0, 20);
    expect(seen.length).toBe(6);
    const plans = await db.connection().execute(async (conn) => {
      if (postgres()) await sql`SET enable_seqscan = off`.execute(conn);
      const out: string[] = [];
      for (const q of seen) {
        const explain = postgres() ? `EXPLAIN ${q.sql}` : `EXPLAIN QUERY PLAN ${q.sql}`;
        const r = await conn.executeQuery<Record<string, string>>(
          CompiledQuery.raw(explain, [...q.parameters]),
        );
        out.push(r.rows.map((row) => row['QUERY PLAN'] ?? row.detail).join('\n'));
      }
      if (postgres()) await sql`RESET enable_seqscan`.execute(conn);
      return out;
    });
    // SQLite's SCAN (of the table, or the whole of an index) and PostgreSQL's Seq Scan read every row.
    for (const [i, plan] of plans.entries()) expect(plan, seen[i]!.sql).not.toMatch(/Seq Scan|^\s*SCAN /m);
  });

  it('refuses to look for shares under more paths than the limit in one call', async () => {
    const paths = Array.from({ length: MAX_INCLUDE_PATHS + 1 }, (_, i) => `${HOME}/p${i}`);
    const url = (ps: string[]) => `/share/isIncludeShareFile.action?${ps.map((p) => `paths=${p}`).join('&')}`;
    const many = await get(url(paths), { 'accept-language': 'zh-CN' });
    expect(many.statusCode).toBe(400);
    expect(many.json<Json>()).toMatchObject({
      code: '1004',
      msg: `一次最多检查 ${MAX_INCLUDE_PATHS} 个路径是否有分享`,
    });
    expect((await get(url(paths.slice(1)))).json<Json>().code).toBe('0');
  });

  it('refuses a page number past the largest, and the infinite one, as invalid input (1004)', async () => {
    for (const url of [
      '/share/list.action?pageNum=1e20',
      '/share/list.action?pageNum=Infinity',
      `/list.action?path=${HOME}&pageNum=1e400`,
      `/list.action?path=${HOME}&pageNum=2147483648`,
      `/list.action?path=${HOME}&pageSize=1e400`,
    ]) {
      const r = await get(url);
      expect({ url, status: r.statusCode, code: r.json<Json>().code }).toEqual({
        url,
        status: 400,
        code: '1004',
      });
    }
    const last = await get('/share/list.action?pageNum=2147483647&pageSize=500');
    expect(last.json<Json>()).toMatchObject({ code: '0', data: { list: [], pageNum: 2147483647 } });
  });
});

describe.each(testDbTargets())('the per-user share limit ($name)', (target) => {
  let h: Harness;
  let token: string;
  let now = Date.now();
  const get = (url: string) => h.app.inject({ method: 'GET', url, headers: { token } });
  const open = async () =>
    (await get(`/share/open.action?path=${encodeURIComponent(`${HOME}/f.txt`)}&validDays=1`)).json<
      Json<{ shareId: string }>
    >();

  beforeAll(async () => {
    h = await makeHarness({ db: target, now: () => now, kv: new MemoryKv() });
    token = await h.token();
    fs.writeFileSync(`${h.home}/f.txt`, 'f');
  });
  afterAll(() => h.close());

  it(`refuses the ${MAX_SHARES_PER_USER + 1}th open share; closed and expired ones make room, oldest first`, async () => {
    const db = h.deps.db;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('efile_shares')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('owner_sub', '=', 'u-demo')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await insertRows(
      db,
      Array.from({ length: MAX_SHARES_PER_USER - 1 }, (_, i) => rowOf(i, now)),
    );
    const last = await open();
    expect(last.code).toBe('0');
    const refused = await open();
    expect(refused).toMatchObject({
      code: '1004',
      msg: `You have ${MAX_SHARES_PER_USER} open shares, the most one user may have: close some and share again`,
    });
    expect(await count()).toBe(MAX_SHARES_PER_USER);

    // One closed and one expired: the next two shares take their places; the rest stay.
    expect((await get(`/share/close.action?shareId=${last.data.shareId}`)).json<Json>().code).toBe('0');
    await db
      .updateTable('efile_shares')
      .set({ expires_at: now - 1 })
      .where('id', '=', 'bulk-7')
      .execute();
    expect((await open()).code).toBe('0');
    expect((await open()).code).toBe('0');
    expect((await open()).code).toBe('1004');
    expect(await count()).toBe(MAX_SHARES_PER_USER);
    const gone = await db
      .selectFrom('efile_shares')
      .select('id')
      .where('id', 'in', [last.data.shareId, 'bulk-7'])
      .execute();
    expect(gone).toEqual([]);

    // A day later every share has expired: room again.
    now += 2 * DAY;
    expect((await open()).code).toBe('0');
  });
});
