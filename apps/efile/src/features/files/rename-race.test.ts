import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, form, makeHarness, type Harness } from '../../efile.test-fixture';
import { raceFolderRenames } from './rename-race.test-fixture';

/**
 * Two renames onto one name at the same moment (review finding 1): rename(2) silently replaces an empty folder, so a
 * check of the name followed by rename let both succeed and one folder vanish. Exactly one must win; the other is
 * told the name is taken (1023), and nothing is lost.
 */
describe('renames racing onto one name, and creating under a file', () => {
  let h: Harness;
  let token: string;
  const post = (url: string, body: Record<string, string>) =>
    h.app.inject({ method: 'POST', url, headers: { token, ...FORM }, payload: form(body) });

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
  });
  afterAll(() => h.close());

  it('two folders renamed to X at once: one wins, the other gets 1023, both folders are kept', async () => {
    const bad = await raceFolderRenames({
      rounds: 60,
      host: (i) => `${h.home}/r${i}`,
      cluster: (i) => `/public/home/demo/r${i}`,
      rename: (p, newName) => post('/rename.action', { path: p, newName }),
    });
    expect(bad).toEqual([]);
    // No placeholder or temp name left behind anywhere.
    expect(fs.readdirSync(h.home, { recursive: true }).filter((n) => String(n).includes('efile'))).toEqual(
      [],
    );
  });

  it('a file renamed onto a folder name being taken at once is refused, and a folder onto a file name', async () => {
    for (let i = 0; i < 30; i++) {
      const d = `${h.home}/m${i}`;
      fs.mkdirSync(`${d}/A`, { recursive: true });
      fs.writeFileSync(`${d}/f.txt`, 'file');
      const base = `/public/home/demo/m${i}`;
      const [a, b] = await Promise.all([
        post('/rename.action', { path: `${base}/A`, newName: 'X' }),
        post('/rename.action', { path: `${base}/f.txt`, newName: 'X' }),
      ]);
      const codes = [a.json().code as string, b.json().code as string];
      // Whichever won, the other is told what holds the name now.
      expect(codes.filter((c) => c === '0')).toHaveLength(1);
      expect(fs.readdirSync(d).sort()).toHaveLength(2);
      const loser = codes.find((c) => c !== '0');
      expect(loser).toBe(fs.statSync(`${d}/X`).isDirectory() ? '1023' : '1021');
    }
  });

  it('mkdir and touch under a file answer 1022 (not a folder), not 1030', async () => {
    fs.writeFileSync(`${h.home}/plain.txt`, 'x');
    for (const url of ['/mkdir.action', '/touchFile.action']) {
      const r = await post(url, { path: '/public/home/demo/plain.txt/inner' });
      expect([url, r.json().code]).toEqual([url, '1022']);
    }
  });
});
