import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCodes } from '@hpc/contracts';
import { makeHarness, type Harness } from '../efile.test-fixture';
import { PARTIAL_SUFFIX, tempName } from '../fs/names';
import {
  buildWorkerBundle,
  createUsers,
  isRoot,
  makeHome,
  openPathTo,
  removeUsers,
} from '../../../../test-support/unix-users';
import { LocalUserFs } from './local';
import type { FsScope, UserFs } from './types';
import { userFsCalls } from './user-fs-calls';

if (!isRoot) console.warn('SKIPPED the call table in unix mode: it creates a real user and needs root');

interface Ctx {
  fsx: UserFs;
  s: FsScope;
  home: string;
  /** The host path of a cluster path in the home (as the resolver of this mode gives it). */
  host: (rel: string) => Promise<string>;
}

const bytes = async (it: AsyncIterable<Buffer> | PassThrough) => {
  const parts: Buffer[] = [];
  for await (const c of it as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
};
const once = (...chunks: string[]) =>
  (async function* () {
    for (const c of chunks) yield Buffer.from(c);
  })();
const sha = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
const partial = (name: string) => tempName(name, PARTIAL_SUFFIX, 'abcdef123456');

/**
 * One use of each call of the table, in this order (later ones use what earlier ones made). Typed by the table: a
 * call added to it without a use here does not compile, and the test below checks the names at run time as well.
 */
const uses: { [K in keyof typeof userFsCalls]: (c: Ctx) => Promise<void> } = {
  resolve: async ({ fsx, s, home }) => {
    expect((await fsx.resolve(s, `${home}/a.txt`)).stat).toMatchObject({ isFile: true, size: 5 });
  },
  list: async ({ fsx, s, home }) => {
    const r = await fsx.list(s, home, { pageNum: 1, pageSize: 50, sort: 'name', order: 'asc' });
    expect(r.list.map((e) => e.name)).toContain('a.txt');
  },
  mkdir: async ({ fsx, s, home }) => expect(await fsx.mkdir(s, `${home}/d`)).toBe(`${home}/d`),
  touch: async ({ fsx, s, home }) => expect(await fsx.touch(s, `${home}/t.txt`)).toBe(`${home}/t.txt`),
  remove: async ({ fsx, s, home }) =>
    expect(await fsx.remove(s, [`${home}/t.txt`], false)).toEqual([`${home}/t.txt`]),
  rename: async ({ fsx, s, home }) =>
    expect(await fsx.rename(s, `${home}/d`, 'd2')).toEqual({ from: `${home}/d`, to: `${home}/d2` }),
  exist: async ({ fsx, s, home }) =>
    expect(await fsx.exist(s, `${home}/d2`)).toEqual({ exist: true, isDirectory: true }),
  tree: async ({ fsx, s, home }) => expect((await fsx.tree(s, home)).list.map((e) => e.name)).toContain('d2'),
  access: async ({ fsx, s, home }) => expect(await fsx.access(s, home, 'write')).toBe(true),
  homeUsage: async ({ fsx, s, home }) => expect((await fsx.homeUsage(s, home)).files).toBeGreaterThan(0),
  writeFile: async ({ fsx, s, home }) =>
    expect(await fsx.writeFile(s, `${home}/a.txt`, 'hallo')).toBe(`${home}/a.txt`),
  readFile: async ({ fsx, s, host }) =>
    expect((await fsx.readFile(s, await host('a.txt'), 100)).toString()).toBe('hallo'),
  readSmall: async ({ fsx, s, host }) => {
    const [a, gone, folder] = await fsx.readSmall(
      s,
      [await host('a.txt'), (await host('')) + '/no-such-file', await host('d2')],
      3,
    );
    // At most maxBytes of each, with the digest of what was read; each refusal its own.
    expect(a).toEqual({
      data: Buffer.from('hal'),
      sha256: crypto.createHash('sha256').update('hal').digest('hex'),
    });
    expect(gone).toEqual({ code: FileCodes.notFound });
    expect(folder).toEqual({ code: FileCodes.abnormalFile });
  },
  ensureDir: async ({ fsx, s, home }) => expect((await fsx.ensureDir(s, `${home}/e`)).stat?.isDir).toBe(true),
  preparePartial: async ({ fsx, s, host }) => fsx.preparePartial(s, await host(partial('f.bin')), 5),
  fileSize: async ({ fsx, s, host }) => expect(await fsx.fileSize(s, await host(partial('f.bin')))).toBe(5),
  openPartial: async ({ fsx, s, host }) => {
    const p = await fsx.openPartial(s, await host(partial('f.bin')));
    await p.write(once('wor', 'ld'), 0);
    await p.sync();
    await p.close();
  },
  sha256: async ({ fsx, s, host }) =>
    expect(await fsx.sha256(s, await host(partial('f.bin')))).toEqual({ sha256: sha('world'), size: 5 }),
  finalizePartial: async ({ fsx, s, home, host }) => {
    const args = { target: `${home}/f.bin`, partialName: partial('f.bin'), size: 5, overwrite: false };
    await fsx.finalizePartial(s, { ...args, expectedPartial: await host(partial('f.bin')) });
    expect((await fsx.exist(s, `${home}/f.bin`)).exist).toBe(true);
  },
  unlink: async ({ fsx, s, home, host }) => {
    await fsx.preparePartial(s, await host(partial('g.bin')), 1);
    await fsx.unlink(s, await host(partial('g.bin')));
    expect((await fsx.exist(s, `${home}/${partial('g.bin')}`)).exist).toBe(false);
  },
  identify: async ({ fsx, s, home }) => expect((await fsx.identify(s, home)).isDir).toBe(true),
  walk: async ({ fsx, s, host }) => {
    const rels: string[] = [];
    for await (const g of fsx.walk(s, await host('d2'), await host(''))) rels.push(...g.map((e) => e.rel));
    expect(rels).toEqual(['d2']);
  },
  transfer: async ({ fsx, s, home }) => {
    const src = await fsx.resolve(s, `${home}/a.txt`);
    const dst = await fsx.resolve(s, `${home}/e/a.txt`, { mustExist: false });
    const seen: unknown[] = [];
    const args = { kind: 'copy' as const, items: [{ src, dst }], cover: false, id: 'c'.repeat(16) };
    await fsx.transfer(s, args, (p) => seen.push(p), new AbortController().signal);
    expect(seen.at(-1)).toMatchObject({ filesDone: 1, bytesDone: 5 });
  },
  writeStream: async ({ fsx, s, home }) =>
    expect(await fsx.writeStream(s, `${home}/w.txt`, once('ab', 'c'), false)).toBe(3),
  extractTar: async ({ fsx, s, home, host }) => {
    const tar = execFileSync('tar', ['-c', '-C', await host(''), 'w.txt']);
    expect(await fsx.extractTar(s, `${home}/d2`, once(tar.toString('latin1')), false)).toMatchObject({
      files: 1,
    });
  },
  sweepStaging: async ({ fsx, s, host }) => {
    // Made as the user would have (their extraction's own folder), then aged: one stale staging folder with a file,
    // a fresh one, a link named like one, and a stale folder of another name.
    const dir = await host('d2');
    const [uid, gid] = owner(dir);
    const make = (name: string, ageMs: number) => {
      fs.mkdirSync(path.join(dir, name));
      fs.writeFileSync(path.join(dir, name, '0'), 'x');
      for (const p of [path.join(dir, name, '0'), path.join(dir, name)]) fs.chownSync(p, uid, gid);
      const t = new Date(Date.now() - ageMs);
      fs.utimesSync(path.join(dir, name), t, t);
    };
    make('.tar.aaaaaaaaaaaa.efile-part', 48 * 3600_000);
    make('.tar.bbbbbbbbbbbb.efile-part', 0);
    make('keep.tar', 48 * 3600_000);
    fs.symlinkSync('keep.tar', path.join(dir, '.tar.cccccccccccc.efile-part'));
    expect(await fsx.sweepStaging(s, dir, Date.now() - 24 * 3600_000)).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual([
      '.tar.bbbbbbbbbbbb.efile-part',
      '.tar.cccccccccccc.efile-part',
      'keep.tar',
      'w.txt',
    ]);
    for (const name of fs.readdirSync(dir))
      if (name !== 'w.txt') fs.rmSync(path.join(dir, name), { recursive: true });
  },
  openRead: async ({ fsx, s, host }) => {
    const r = await fsx.openRead(s, await host('a.txt'));
    expect(r.size).toBe(5);
    const out = new PassThrough();
    const [got] = await Promise.all([bytes(out), r.pipeTo(out, 1, 3)]);
    expect(got.toString()).toBe('all');
    // A range read whole: filled, or as far as the file goes, or nothing past its end.
    const into = Buffer.alloc(3);
    expect(await r.readAt(into, 1)).toBe(3);
    expect(into.toString()).toBe('all');
    const tail = Buffer.alloc(8);
    expect(await r.readAt(tail, 3)).toBe(2);
    expect(tail.subarray(0, 2).toString()).toBe('lo');
    expect(await r.readAt(Buffer.alloc(4), 5)).toBe(0);
    await r.close();
  },
  openZip: async ({ fsx, s, host }) => {
    const z = await fsx.openZip(s, [{ host: await host('a.txt'), name: 'a.txt' }], 10);
    expect(z.fileCount).toBe(1);
    const out = new PassThrough();
    const [got] = await Promise.all([bytes(out), z.writeTo(out)]);
    await z.close();
    expect(got.length).toBe(z.size);
    expect(got.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
  },
  storeSmall: async ({ fsx, s, home, host }) => {
    await fsx.storeSmall(s, await host(''), 'small.txt', [Buffer.from('tiny')], sha('tiny'), false);
    expect((await fsx.exist(s, `${home}/small.txt`)).exist).toBe(true);
  },
};

const modes: { mode: 'single' | 'unix'; user: string; env: Record<string, string> }[] = [
  { mode: 'single', user: 'demo', env: {} },
  { mode: 'unix', user: 'tuxt1', env: { EFILE_USER_MODE: 'unix', EFILE_WORKER_IDLE_S: '60' } },
];

/**
 * The call table walked in both modes (issue 23 §1): every call it declares answers in this process (single mode)
 * and through the user's worker (unix mode), where a call missing from the front end's proxy or the worker's
 * dispatcher would fail.
 */
for (const m of modes) {
  describe.skipIf(m.mode === 'unix' && !isRoot)(`the user-file call table, in ${m.mode} mode`, () => {
    let h: Harness;
    const home = `/public/home/${m.user}`;

    beforeAll(async () => {
      if (m.mode === 'unix') {
        await buildWorkerBundle();
        createUsers([m.user]);
      }
      h = await makeHarness({ env: m.env });
      if (m.mode === 'unix') {
        openPathTo(path.dirname(h.fsRoot));
        makeHome(h.host(home), m.user);
      }
      fs.writeFileSync(h.host(`${home}/a.txt`), 'hello');
      if (m.mode === 'unix') fs.chownSync(h.host(`${home}/a.txt`), ...owner(h.host(home)));
    }, 120_000);

    afterAll(async () => {
      await h?.close();
      if (m.mode === 'unix') removeUsers([m.user]);
    });

    it('every call of the table answers, on both sides of the wire', async () => {
      const fsx = h.deps.userfs;
      const names = Object.keys(userFsCalls).sort();
      expect(Object.keys(uses).sort()).toEqual(names);
      for (const name of names) {
        expect(typeof (fsx as unknown as Record<string, unknown>)[name], `${name} of the front end`).toBe(
          'function',
        );
        expect(
          typeof (LocalUserFs.prototype as unknown as Record<string, unknown>)[name],
          `${name} of LocalUserFs`,
        ).toBe('function');
      }
      const s: FsScope = { cun: m.user, roots: [home] };
      const ctx: Ctx = {
        fsx,
        s,
        home,
        host: async (rel) =>
          rel
            ? (await fsx.resolve(s, `${home}/${rel}`, { mustExist: false })).host
            : (await fsx.resolve(s, home)).host,
      };
      for (const [name, use] of Object.entries(uses)) {
        await use(ctx).catch((e: unknown) => {
          throw new Error(`${name} failed in ${m.mode} mode: ${String(e)}`, { cause: e });
        });
      }
      if (m.mode === 'unix')
        expect(fs.statSync(h.host(`${home}/small.txt`)).uid).toBe(owner(h.host(home))[0]);
    }, 60_000);
  });
}

function owner(p: string): [number, number] {
  const st = fs.statSync(p);
  return [st.uid, st.gid];
}
