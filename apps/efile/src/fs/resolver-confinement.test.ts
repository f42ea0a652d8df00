import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@hpc/server-kit';
import { makeTempDir } from '@hpc/server-kit/testing';
import { PathResolver, isUnder, normalizeClusterPath } from '@hpc/cluster-kit';
import { atomicWriteFile, makeDir, openForRead, removeEntry, touchFile } from './file-ops';
import { listDirectory } from './listing';
import { validateName } from './names';

/*
 * The path resolver (now in @hpc/cluster-kit, shared with the job service) together with efile's file-system
 * primitives, which act on what it resolves: malformed and foreign paths, links in and out, hostile paths.
 */

/** Every file under a folder with its sha256 (links recorded by target, never followed). */
function snapshot(dir: string, skip: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (skip.some((s) => isUnder(p, s))) continue;
      if (e.isSymbolicLink()) out.set(p, `link:${fs.readlinkSync(p)}`);
      else if (e.isDirectory()) {
        out.set(p, 'dir');
        walk(p);
      } else out.set(p, crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

describe('path resolver', () => {
  const tmp = makeTempDir('efile-resolver-');
  const base = fs.realpathSync(tmp.dir);
  const root = path.join(base, 'root');
  const home = path.join(root, 'public/home/demo');
  const proj = path.join(root, 'public/share/proj');
  const outside = path.join(base, 'outside');
  const resolver = new PathResolver(root);
  const scope = { roots: ['/public/home/demo', '/public/share/proj'] };
  let before: Map<string, string>;

  beforeAll(() => {
    for (const d of [
      home + '/dir',
      proj,
      root + '/public/home/other',
      root + '/public/share/secret',
      outside + '/sub',
    ]) {
      fs.mkdirSync(d, { recursive: true });
    }
    fs.writeFileSync(outside + '/secret.txt', 'outside secret');
    fs.writeFileSync(outside + '/sub/deep.txt', 'deep secret');
    fs.writeFileSync(root + '/public/home/other/other.txt', 'other user');
    fs.writeFileSync(root + '/public/share/secret/s.txt', 'not granted');
    fs.writeFileSync(home + '/a.txt', 'a');
    fs.writeFileSync(home + '/dir/b.txt', 'b');
    fs.writeFileSync(proj + '/p.txt', 'p');
    // Links created at test time: inside (followed), and several kinds leading outside (refused).
    fs.symlinkSync('a.txt', home + '/link-in');
    fs.symlinkSync('../../share/proj', home + '/link-proj');
    fs.symlinkSync(outside, home + '/link-out');
    fs.symlinkSync(outside + '/secret.txt', home + '/link-out-file');
    fs.symlinkSync('/', home + '/link-root');
    fs.symlinkSync('../other', home + '/link-other');
    fs.symlinkSync('../../../../outside/secret.txt', home + '/dir/rel-out');
    fs.symlinkSync(outside + '/nothing-yet', home + '/dangling-out');
    fs.symlinkSync('../secret', proj + '/up');
    before = snapshot(base, [home, proj]);
  });
  afterAll(() => tmp.cleanup());

  it('refuses malformed input with 1033 and foreign roots with 1030', async () => {
    for (const p of [
      '',
      'relative',
      '/public/home/demo/../other',
      '/public/home/demo/./a.txt',
      '/a//b',
      '/x\u0000y',
    ]) {
      await expect(resolver.resolve(scope, p)).rejects.toMatchObject({
        code: expect.stringMatching(/^(1033|1003)$/),
      });
    }
    await expect(resolver.resolve(scope, '/public/home/other/other.txt')).rejects.toMatchObject({
      code: '1030',
    });
    await expect(resolver.resolve(scope, '/etc/passwd')).rejects.toMatchObject({ code: '1030' });
    await expect(resolver.resolve(scope, '/public/home/demo/link-out/secret.txt')).rejects.toMatchObject({
      code: '1030',
    });
    await expect(resolver.resolve(scope, '/public/home/demo/link-root')).rejects.toMatchObject({
      code: '1030',
    });
    await expect(resolver.resolve(scope, '/public/home/demo/missing/x')).rejects.toMatchObject({
      code: '1020',
    });
    expect(normalizeClusterPath('/public/home/demo/')).toBe('/public/home/demo');
  });

  it('follows links that stay inside, across granted roots', async () => {
    const r = await resolver.resolve(scope, '/public/home/demo/link-in');
    expect(r.host).toBe(home + '/a.txt');
    const p = await resolver.resolve(scope, '/public/home/demo/link-proj/p.txt');
    expect(p.host).toBe(proj + '/p.txt');
    // No-follow mode acts on the link itself (remove/rename never touch the target).
    const l = await resolver.resolve(scope, '/public/home/demo/link-out', { follow: false });
    expect(l.stat?.isSymbolicLink()).toBe(true);
  });

  it('O_NOFOLLOW refuses a link swapped in after resolution', async () => {
    fs.writeFileSync(home + '/swap.txt', 'x');
    const r = await resolver.resolve(scope, '/public/home/demo/swap.txt');
    fs.unlinkSync(home + '/swap.txt');
    fs.symlinkSync(outside + '/secret.txt', home + '/swap.txt');
    await expect(openForRead(r.host)).rejects.toMatchObject({ code: '1030' });
    fs.unlinkSync(home + '/swap.txt');
  });

  it('10,000 hostile paths never read, write, list or delete outside the roots', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        '..',
        '.',
        '',
        '%2e%2e',
        '%2E%2E%2F..',
        '\u2024\u2024',
        '\uFF0E\uFF0E',
        '\u2215',
        '..\u2215..',
        '\\..\\..',
        'a.txt',
        'dir',
        'b.txt',
        'link-in',
        'link-out',
        'link-out-file',
        'link-root',
        'link-other',
        'link-proj',
        'rel-out',
        'dangling-out',
        'up',
        'secret.txt',
        'sub',
        'other',
        'other.txt',
        'etc',
        'passwd',
        'outside',
        'x'.repeat(300),
        '\u0000',
        '~',
        'new-file',
        'new-dir',
        ' ',
        'proj',
        'secret',
        'home',
        'demo',
        'public',
        'share',
      ),
      fc.string({ maxLength: 12 }),
    );
    const prefix = fc.constantFrom(
      '/public/home/demo',
      '/public/home/demo/',
      '/public/home',
      '/public/home/other',
      '/',
      '',
      'public/home/demo',
      '/public/share/proj',
      '/public/share',
      '/public/home/demo/dir',
      outside,
      root,
    );
    const hostile = fc
      .tuple(prefix, fc.array(segment, { maxLength: 6 }))
      .map(([p, segs]) => [p, ...segs].join('/'));
    const realRoots = [home, proj];
    const ok = (host: string) => realRoots.some((r) => isUnder(host, r));
    let accepted = 0;

    await fc.assert(
      fc.asyncProperty(hostile, fc.nat(3), async (p, op) => {
        const attempt = async (fn: () => Promise<unknown>) => {
          try {
            await fn();
          } catch (e) {
            if (!isAppError(e)) throw e;
          }
        };
        await attempt(async () => {
          const r = await resolver.resolve(scope, p);
          expect(ok(r.host)).toBe(true);
          accepted++;
          if (r.stat?.isDirectory()) {
            await listDirectory(
              r.host,
              r.clusterPath,
              { pageNum: 1, pageSize: 5, sort: 'name', order: 'asc' },
              (h) => resolver.contains(scope, h),
            );
          } else {
            const fh = await openForRead(r.host);
            await fh.read(Buffer.alloc(16), 0, 16, 0);
            await fh.close();
          }
        });
        await attempt(async () => {
          const r = await resolver.resolve(scope, p, { follow: false, mustExist: false });
          expect(ok(r.parentHost)).toBe(true);
          expect(path.dirname(r.host)).toBe(r.parentHost);
          if (op === 0 && !r.stat) {
            validateName(r.name);
            await touchFile(r);
          } else if (op === 1 && !r.stat) {
            validateName(r.name);
            await makeDir(r);
          } else if (op === 2 && r.stat?.isFile()) {
            await atomicWriteFile(r, 'rewritten');
          } else if (
            op === 3 &&
            r.stat &&
            (r.name.startsWith('new') ||
              !/^(a\.txt|b\.txt|dir|link-|p\.txt|rel-out|dangling-out|up)/.test(r.name))
          ) {
            await removeEntry(r, true);
          }
        });
      }),
      { numRuns: 10_000 },
    );
    expect(accepted).toBeGreaterThan(100);
    // The sentinel tree outside, the other user's home and the ungranted share are byte-for-byte unchanged, and no
    // new file appeared outside the two allowed roots.
    expect(snapshot(base, [home, proj])).toEqual(before);
  }, 120_000);

  it('child() answers like a no-follow resolve of the name inside a resolved folder', async () => {
    fs.mkdirSync(path.join(home, 'kid'), { recursive: true });
    fs.writeFileSync(path.join(home, 'kid', 'file'), 'x');
    fs.symlinkSync('/etc/passwd', path.join(home, 'kid', 'link'));
    const dir = await resolver.resolve(scope, '/public/home/demo/kid');
    for (const name of ['file', 'link', 'missing']) {
      const viaChild = await resolver.child(dir, name);
      const viaResolve = await resolver.resolve(scope, `/public/home/demo/kid/${name}`, {
        follow: false,
        mustExist: false,
      });
      expect({ ...viaChild, stat: viaChild.stat?.ino }).toEqual({
        ...viaResolve,
        stat: viaResolve.stat?.ino,
      });
    }
    await expect(resolver.child(dir, '界'.repeat(86))).rejects.toMatchObject({ code: '1033' });
  });
});
