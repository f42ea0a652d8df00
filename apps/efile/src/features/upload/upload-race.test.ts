import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKv } from '@hpc/server-kit';
import { testDbTargets } from '@hpc/server-kit/testing';
import { makeHarness, type Harness } from '../../efile.test-fixture';
import { postChunk, type ChunkTarget } from './chunk-client.test-fixture';

const CHUNK = 64 * 1024;

/**
 * Two uploads to one name at once (review finding 3): different identifiers (the files differ in size), two chunks
 * each, all four chunks in parallel. The first chunk of each began its own session and removed the other's, so the
 * other's next chunk met no session (500 `Cannot read properties of null`), or began its own again, and neither
 * file arrived while a partial and its session row stayed behind. Now one upload has the name until it ends; the
 * other is refused with a spec code, and nothing of it stays.
 */
describe.each(testDbTargets())('two uploads to one name at once ($name)', (db) => {
  let h: Harness;
  let token: string;
  let base: string;

  beforeAll(async () => {
    h = await makeHarness({ db });
    token = await h.token();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => h.close());

  const upload = (name: string, size: number): ChunkTarget => ({
    base,
    token,
    path: '/public/home/demo',
    relativePath: name,
    data: crypto.randomBytes(size),
    chunkSize: CHUNK,
  });

  it('one arrives whole, the other is refused with a spec code; no 500, no partial or session left', async () => {
    const bad: string[] = [];
    for (let i = 0; i < 15; i++) {
      const name = `diff${i}.bin`;
      const a = upload(name, 2 * CHUNK);
      const b = upload(name, 2 * CHUNK + 1000);
      const answers = await Promise.all(
        (
          [
            [a, 1],
            [b, 1],
            [a, 2],
            [b, 2],
          ] as const
        ).map(async ([t, n]) => {
          const r = await postChunk(t, n);
          const body = (await r.json()) as { code: string; msg: string; data?: { complete: boolean } };
          return { who: t === a ? 'a' : 'b', status: r.status, ...body };
        }),
      );
      const file = fs.existsSync(`${h.home}/${name}`) ? fs.readFileSync(`${h.home}/${name}`) : null;
      const winner = file?.equals(a.data) ? 'a' : file?.equals(b.data) ? 'b' : null;
      const partials = fs.readdirSync(h.home).filter((n) => n.startsWith(`.${name}.`));
      const active = await h.deps.db
        .selectFrom('efile_partials')
        .select('id')
        .where('target', '=', `/public/home/demo/${name}`)
        .where('status', '=', 'active')
        .execute();
      const says = answers.map((x) => `${x.who}:${x.status}/${x.code}`).join(' ');
      if (!winner) bad.push(`round ${i}: no whole file (${says})`);
      for (const x of answers) {
        if (x.status === 500 || !['0', '1020', '1021'].includes(x.code))
          bad.push(`round ${i}: ${x.who} ${x.status} ${x.code} ${x.msg}`);
        if (x.who === winner && x.code !== '0') bad.push(`round ${i}: the winner refused (${says})`);
      }
      if (winner && answers.every((x) => x.code === '0'))
        bad.push(`round ${i}: the loser was told 0 (${says})`);
      if (partials.length || active.length)
        bad.push(`round ${i}: left ${partials.join()} and ${active.length} active sessions`);
    }
    expect(bad).toEqual([]);
  });
});

/**
 * An upload quiet for minutes counts as abandoned, and a new upload of the name replaces it, here on another
 * instance (same files, database and store). The old upload's partial is still open on the first instance: a chunk
 * of it arriving there afterwards is written into the removed file, so it must be refused (1020) and not recorded,
 * or a later upload of the same identifier would take it as stored. The old upload begun again meets the new one in
 * progress (1021).
 */
describe('an abandoned upload replaced on another instance', () => {
  let now = 1_800_000_000_000;
  const kv = new MemoryKv();
  let one: Harness;
  let two: Harness;
  const bases = new Map<Harness, { base: string; token: string }>();

  beforeAll(async () => {
    one = await makeHarness({ kv, now: () => now });
    two = await makeHarness({ kv, now: () => now, dir: one.dir });
    for (const h of [one, two]) {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
      bases.set(h, { base, token: await h.token() });
    }
  });
  afterAll(async () => {
    await two.close(true);
    await one.close();
    await kv.close();
  });

  const at = (h: Harness, data: Buffer): ChunkTarget => ({
    ...bases.get(h)!,
    path: '/public/home/demo',
    relativePath: 'replaced.bin',
    data,
    chunkSize: CHUNK,
  });
  const codeOf = async (r: Response) => [r.status, ((await r.json()) as { code: string }).code];

  it('refuses the old upload’s late chunk (1020), records nothing, and keeps the new upload whole', async () => {
    const oldData = crypto.randomBytes(3 * CHUNK);
    const newData = crypto.randomBytes(3 * CHUNK + 10);
    expect(await codeOf(await postChunk(at(one, oldData), 1))).toEqual([200, '0']);
    // Still in progress: a new upload of the name is refused on either instance.
    expect(await codeOf(await postChunk(at(two, newData), 1))).toEqual([415, '1021']);
    now += 4 * 60_000;
    expect(await codeOf(await postChunk(at(two, newData), 1))).toEqual([200, '0']);
    expect(await codeOf(await postChunk(at(one, oldData), 2))).toEqual([404, '1020']);
    const pieces = await one.deps.db.selectFrom('efile_partial_pieces').select(['session_id', 'n']).execute();
    const sessions = await one.deps.db.selectFrom('efile_partials').select(['id', 'status']).execute();
    // Only the new upload's session, with its one chunk.
    expect(sessions).toHaveLength(1);
    expect(pieces).toEqual([{ session_id: sessions[0]!.id, n: 1 }]);
    expect(await codeOf(await postChunk(at(one, oldData), 3))).toEqual([415, '1021']);
    for (const n of [2, 3]) expect(await codeOf(await postChunk(at(one, newData), n))).toEqual([200, '0']);
    expect(fs.readFileSync(`${one.home}/replaced.bin`).equals(newData)).toBe(true);
    expect(fs.readdirSync(one.home).filter((n) => n.endsWith('.efile-part'))).toEqual([]);
  });
});
