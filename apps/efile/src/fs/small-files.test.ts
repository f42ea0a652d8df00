import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CommonCodes, FileCodes } from '@hpc/contracts';
import { isAppError } from '@hpc/server-kit';
import { makeTempDir } from '@hpc/server-kit/testing';
import { SmallFiles } from './small-files';
import { holdFolder, type HeldFolder } from './transfer-ops';

const sha = (s: string | Buffer) => crypto.createHash('sha256').update(s).digest('hex');
const codeOf = (r: PromiseSettledResult<void>) =>
  r.status === 'fulfilled' ? 'ok' : isAppError(r.reason) ? r.reason.code : String(r.reason);

describe('small files stored a group at a time in the store thread', () => {
  const tmp = makeTempDir('efile-small-');
  const small = new SmallFiles();
  afterAll(async () => {
    await small.close();
    tmp.cleanup();
  });
  const opts = { overwrite: false, mode: 0o640, fixMode: false };
  /** Runs `fn` on a new folder `name` held open as a batch holds it, released after. */
  async function inHeldFolder(name: string, fn: (folder: HeldFolder, dir: string) => Promise<void>) {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir);
    const folder = await holdFolder(dir);
    try {
      await fn(folder, dir);
    } finally {
      await folder.release();
    }
  }

  it('stores a group: each file its own outcome, a refusal writes nothing, no temp left behind', async () => {
    await inHeldFolder('g', async (folder, dir) => {
      fs.writeFileSync(path.join(dir, 'taken'), 'old');
      fs.mkdirSync(path.join(dir, 'folder'));
      const files = Array.from({ length: 100 }, (_, i) => [`f${i}.txt`, `content ${i}`] as const);
      const calls = [
        ...files.map(([n, c]) => small.store('g', folder, n, [Buffer.from(c)], sha(c), opts)),
        small.store('g', folder, 'bad.txt', [Buffer.from('x')], sha('y'), opts),
        small.store('g', folder, 'taken', [Buffer.from('new')], sha('new'), opts),
        small.store('g', folder, 'folder', [Buffer.from('new')], sha('new'), opts),
        // Pieces of one file are joined.
        small.store('g', folder, 'two.txt', [Buffer.from('ab'), Buffer.from('cd')], sha('abcd'), opts),
      ];
      const out = (await Promise.allSettled(calls)).map(codeOf);
      expect(out.slice(0, 100).every((c) => c === 'ok')).toBe(true);
      expect(out.slice(100)).toEqual([
        CommonCodes.verificationFailed,
        FileCodes.sameNameFile,
        FileCodes.sameNameDir,
        'ok',
      ]);
      for (const [n, c] of files) expect(fs.readFileSync(path.join(dir, n), 'utf8')).toBe(c);
      expect(fs.statSync(path.join(dir, 'f0.txt')).mode & 0o777).toBe(0o640 & ~process.umask());
      expect(fs.readFileSync(path.join(dir, 'taken'), 'utf8')).toBe('old');
      expect(fs.readFileSync(path.join(dir, 'two.txt'), 'utf8')).toBe('abcd');
      expect(fs.existsSync(path.join(dir, 'bad.txt'))).toBe(false);
      // Only the final names: every temp was named or removed.
      expect(fs.readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
    });
  });

  it('counts a final name already holding the same bytes as stored (an upload run again), anything else as taken', async () => {
    await inHeldFolder('same', async (folder, dir) => {
      fs.writeFileSync(path.join(dir, 'same'), 'content');
      fs.writeFileSync(path.join(dir, 'longer'), 'content and more');
      fs.writeFileSync(path.join(dir, 'differs'), 'CONTENT');
      fs.writeFileSync(path.join(dir, 'target'), 'content');
      fs.symlinkSync(path.join(dir, 'target'), path.join(dir, 'link'));
      execFileSync('mkfifo', [path.join(dir, 'fifo')]);
      const names = ['same', 'longer', 'differs', 'link', 'fifo'];
      const out = await Promise.allSettled(
        names.map((n) => small.store('same', folder, n, [Buffer.from('content')], sha('content'), opts)),
      );
      expect(out.map(codeOf)).toEqual([
        'ok',
        FileCodes.sameNameFile,
        FileCodes.sameNameFile,
        FileCodes.sameNameFile,
        FileCodes.sameNameFile,
      ]);
      // Nothing replaced: the same inode for the file left as it was, the link still a link, the FIFO a FIFO.
      expect(fs.readFileSync(path.join(dir, 'differs'), 'utf8')).toBe('CONTENT');
      expect(fs.lstatSync(path.join(dir, 'link')).isSymbolicLink()).toBe(true);
      expect(fs.lstatSync(path.join(dir, 'fifo')).isFIFO()).toBe(true);
      expect(fs.readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
      // A name taken after the look before the write (here by the same group's first file of that name) is compared
      // when the synced temp is named: the same bytes are stored, other bytes are refused.
      const racing = await Promise.allSettled([
        small.store('same', folder, 'twice', [Buffer.from('one')], sha('one'), opts),
        small.store('same', folder, 'twice', [Buffer.from('one')], sha('one'), opts),
        small.store('same', folder, 'other', [Buffer.from('one')], sha('one'), opts),
        small.store('same', folder, 'other', [Buffer.from('two')], sha('two'), opts),
      ]);
      expect(racing.map(codeOf)).toEqual(['ok', 'ok', 'ok', FileCodes.sameNameFile]);
      expect(fs.readFileSync(path.join(dir, 'other'), 'utf8')).toBe('one');
      expect(fs.readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
    });
  });

  it('overwrites a file when asked, never a folder', async () => {
    await inHeldFolder('o', async (folder, dir) => {
      fs.mkdirSync(path.join(dir, 'folder'));
      fs.writeFileSync(path.join(dir, 'a'), 'old');
      const o = { ...opts, overwrite: true };
      const out = await Promise.allSettled([
        small.store('o', folder, 'a', [Buffer.from('new')], sha('new'), o),
        small.store('o', folder, 'folder', [Buffer.from('new')], sha('new'), o),
      ]);
      expect(out.map(codeOf)).toEqual(['ok', FileCodes.sameNameDir]);
      expect(fs.readFileSync(path.join(dir, 'a'), 'utf8')).toBe('new');
      expect(fs.statSync(path.join(dir, 'folder')).isDirectory()).toBe(true);
    });
  });

  it('a file system error is the file’s own code (a name that is too long), the others land, the temp is gone', async () => {
    await inHeldFolder('e', async (folder, dir) => {
      const out = await Promise.allSettled([
        small.store('e', folder, 'ok.txt', [Buffer.from('1')], sha('1'), opts),
        small.store('e', folder, 'x'.repeat(300), [Buffer.from('2')], sha('2'), opts),
      ]);
      expect(out.map(codeOf)).toEqual(['ok', CommonCodes.invalidInput]);
      expect(fs.readdirSync(dir)).toEqual(['ok.txt']);
    });
  });

  it('a closed store fails what it was given and starts a new thread for the next group', async () => {
    await inHeldFolder('c', async (folder, dir) => {
      const other = new SmallFiles();
      try {
        await other.store('c', folder, 'first', [Buffer.from('1')], sha('1'), opts);
        const pending = other.store('c', folder, 'second', [Buffer.from('2')], sha('2'), opts).then(
          () => 'stored',
          () => 'failed',
        );
        // Closed before the group goes (it waits for the next turn of the event loop): it fails, nothing lands.
        await other.close();
        expect(await pending).toBe('failed');
        await other.store('c', folder, 'third', [Buffer.from('3')], sha('3'), opts);
        expect(fs.readdirSync(dir).sort()).toEqual(['first', 'third']);
      } finally {
        await other.close();
      }
    });
  });

  it('reads a group whole with openForRead’s checks: no link, no FIFO, nothing reached through a swapped folder', async () => {
    const dir = path.join(tmp.dir, 'r');
    fs.mkdirSync(path.join(dir, 'real'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'real', 'a'), 'abcdef');
    fs.symlinkSync(path.join(dir, 'real', 'a'), path.join(dir, 'real', 'link'));
    execFileSync('mkfifo', [path.join(dir, 'real', 'fifo')]);
    // A folder the resolver saw as `swapped` that is now a link to `real`: its files are not read.
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'swapped'));
    const out = await Promise.allSettled(
      ['real/a', 'real/link', 'real/fifo', 'real/missing', 'swapped/a'].map((n) =>
        small.read(path.join(dir, n), 1024),
      ),
    );
    expect(out.map((r) => (r.status === 'fulfilled' ? r.value.data.toString() : codeOf(r)))).toEqual([
      'abcdef',
      FileCodes.permissionDenied,
      FileCodes.abnormalFile,
      FileCodes.notFound,
      FileCodes.permissionDenied,
    ]);
    // The digest of what was read.
    const first = out[0] as PromiseFulfilledResult<{ data: Buffer; sha256: string }>;
    expect(first.value.sha256).toBe(crypto.createHash('sha256').update('abcdef').digest('hex'));
    // At most the bytes asked for, and the digest of those.
    const cut = await small.read(path.join(dir, 'real', 'a'), 3);
    expect(cut.data.toString()).toBe('abc');
    expect(cut.sha256).toBe(crypto.createHash('sha256').update('abc').digest('hex'));
  });
});
