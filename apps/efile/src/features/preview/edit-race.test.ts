import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from '@hpc/server-kit';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';

/** The in-memory store of one instance always; Redis too when TEST_REDIS_URL is set (a prefix of this run's own). */
const stores: [string, () => KvStore][] = [['memory', () => new MemoryKv()]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push(['redis', () => new RedisKv(url, `test-edit-race:${crypto.randomBytes(4).toString('hex')}:`)]);
}

const FILE = '/public/home/demo/notes.txt';

/**
 * Two saves of one opened text (review finding 2): both carry the mtime the editor read. The mtime was checked in
 * the front end and the write made afterwards, so both saves passed the check and the second overwrote the first
 * unseen. Now exactly one succeeds and the other is told the file changed since it was opened (1028), whichever
 * instance each save reaches.
 */
describe.each(stores)('saves of one file racing (%s)', (name, makeKv) => {
  let kv: KvStore;
  let a: Harness;
  /** A second instance on the same files and the same store (only with Redis, as in a scaled-out cluster). */
  let b: Harness | null = null;
  const tokens = new Map<Harness, string>();
  const post = (h: Harness, url: string, body: Record<string, string | number>) =>
    h.app.inject({ method: 'POST', url, headers: { token: tokens.get(h)!, ...FORM }, payload: form(body) });

  beforeAll(async () => {
    kv = makeKv();
    a = await makeHarness({ kv });
    tokens.set(a, await a.token());
    if (name === 'redis') {
      b = await makeHarness({ kv, dir: a.dir });
      tokens.set(b, await b.token());
    }
  });
  afterAll(async () => {
    await b?.close(true);
    await a.close();
    await kv.close();
  });

  it('two saves with the same expectedMtime: one is saved, the other answers 1028', async () => {
    const bad: string[] = [];
    for (let i = 0; i < 20; i++) {
      fs.writeFileSync(`${a.home}/notes.txt`, `original ${i}\n`);
      // An mtime well in the past: a save within the same clock tick as the file's creation cannot look unchanged.
      const past = new Date(Date.now() - 60_000 - i * 1000);
      fs.utimesSync(`${a.home}/notes.txt`, past, past);
      const opened = (await post(a, '/previewTextFileCheck.action', { path: FILE })).json();
      expect(opened.code).toBe('0');
      const m = opened.data.mtime as number;
      const saves = await Promise.all(
        ['first', 'second'].map((who, k) =>
          post(k === 1 && b ? b : a, '/editTextFile.action', {
            path: FILE,
            content: `${who} ${i}\n`,
            expectedMtime: m,
          }),
        ),
      );
      const codes = saves.map((r) => r.json().code as string);
      const winner = codes.indexOf('0');
      const content = fs.readFileSync(`${a.home}/notes.txt`, 'utf8');
      if ([...codes].sort().join() !== '0,1028' || content !== `${['first', 'second'][winner]} ${i}\n`)
        bad.push(`round ${i}: codes ${codes.join()} content ${JSON.stringify(content)}`);
    }
    expect(bad).toEqual([]);
    expect(fs.readdirSync(a.home).filter((n) => n.includes('efile-tmp'))).toEqual([]);
  });

  it('saves one after another still work, each from the mtime it read', async () => {
    fs.writeFileSync(`${a.home}/notes.txt`, 'v0\n');
    const past = new Date(Date.now() - 120_000);
    fs.utimesSync(`${a.home}/notes.txt`, past, past);
    for (const v of ['v1', 'v2', 'v3']) {
      const m = (await post(a, '/previewTextFileCheck.action', { path: FILE })).json().data.mtime as number;
      const r = await post(a, '/editTextFile.action', { path: FILE, content: `${v}\n`, expectedMtime: m });
      expect(r.json().code).toBe('0');
      // The next save reads a new mtime: wait out one clock tick of the file system's timestamps.
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(fs.readFileSync(`${a.home}/notes.txt`, 'utf8')).toBe('v3\n');
    // Without expectedMtime the save is unconditional, as before.
    const r = await post(a, '/editTextFile.action', { path: FILE, content: 'v4\n' });
    expect(r.json().code).toBe('0');
  });
});
