import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileThread } from './file-thread';

const sha = (b: Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

/** The client's file thread, started from its source text as in the packaged client (file-thread.ts). */
describe('the file thread', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-thread-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads files into their spans of an archive and answers their SHA-256s; the archive comes back filled', async () => {
    const a = crypto.randomBytes(3000);
    fs.writeFileSync(path.join(dir, 'a'), a);
    fs.writeFileSync(path.join(dir, 'empty'), '');
    const archive = Buffer.alloc(4096, 0xee);
    const r = await fileThread.read(archive, [
      { path: path.join(dir, 'a'), at: 100, length: a.length },
      { path: path.join(dir, 'empty'), at: 3500, length: 0 },
    ]);
    expect(r.digests).toEqual([sha(a), sha(Buffer.alloc(0))]);
    expect(r.archive.subarray(100, 100 + a.length).equals(a)).toBe(true);
    expect(r.archive[99]).toBe(0xee);
    // The memory moved to the thread and back: the buffer handed over is not to be used any more.
    expect(archive.length).toBe(0);
  });

  it('refuses to read a link or a FIFO put under a listed name, without following or waiting', async () => {
    fs.writeFileSync(path.join(dir, 'secret'), 'secret!');
    fs.symlinkSync(path.join(dir, 'secret'), path.join(dir, 'link'));
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    for (const name of ['link', 'fifo'])
      await expect(
        fileThread.read(Buffer.alloc(64), [{ path: path.join(dir, name), at: 0, length: 7 }]),
        name,
      ).rejects.toThrow(/no longer a regular file/);
    // The thread is still there for the next read.
    const r = await fileThread.read(Buffer.alloc(64), [{ path: path.join(dir, 'secret'), at: 0, length: 7 }]);
    expect(r.digests).toEqual([sha(Buffer.from('secret!'))]);
  });

  it('fails the read of a file that is gone or shorter than listed, with its code', async () => {
    fs.writeFileSync(path.join(dir, 'short'), 'abc');
    await expect(
      fileThread.read(Buffer.alloc(64), [{ path: path.join(dir, 'short'), at: 0, length: 10 }]),
    ).rejects.toThrow(/shrank/);
    await expect(
      fileThread.read(Buffer.alloc(64), [{ path: path.join(dir, 'gone'), at: 0, length: 1 }]),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes checked files under their final names; a wrong digest or a name taken is that file’s own outcome', async () => {
    const block = Buffer.from('helloworld!!');
    fs.mkdirSync(path.join(dir, 'taken'));
    fs.writeFileSync(path.join(dir, 'taken', 'x'), 'old');
    const out = await fileThread.write(
      block,
      [
        { final: path.join(dir, 'new', 'deep', 'h'), at: 0, length: 5, sha256: sha(block.subarray(0, 5)) },
        { final: path.join(dir, 'bad'), at: 5, length: 5, sha256: sha(Buffer.from('nope')) },
        { final: path.join(dir, 'taken', 'x'), at: 10, length: 2, sha256: sha(block.subarray(10, 12)) },
      ],
      false,
    );
    expect(out[0]).toBeNull();
    expect(out[1]).toMatchObject({ code: 'ECHECKSUM', permanent: false });
    expect(out[2]).toMatchObject({ code: 'EEXIST', permanent: true });
    expect(fs.readFileSync(path.join(dir, 'new', 'deep', 'h'), 'utf8')).toBe('hello');
    expect(fs.existsSync(path.join(dir, 'bad'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'taken', 'x'), 'utf8')).toBe('old');
    // No temp file left behind, whatever became of each.
    const all = fs.readdirSync(dir, { recursive: true }).map(String);
    expect(all.filter((n) => n.includes('fastrans-tmp'))).toEqual([]);
    // With overwrite, the file is replaced.
    const again = await fileThread.write(
      Buffer.from('!!'),
      [{ final: path.join(dir, 'taken', 'x'), at: 0, length: 2, sha256: sha(Buffer.from('!!')) }],
      true,
    );
    expect(again).toEqual([null]);
    expect(fs.readFileSync(path.join(dir, 'taken', 'x'), 'utf8')).toBe('!!');
  });

  it('counts a name that already holds the same bytes as written (fetched again after a restart); never a link', async () => {
    const block = Buffer.from('samesame');
    const secret = path.join(dir, 'secret');
    fs.writeFileSync(secret, 'same');
    fs.writeFileSync(path.join(dir, 'had'), 'same');
    fs.symlinkSync(secret, path.join(dir, 'link'));
    const out = await fileThread.write(
      block,
      [
        { final: path.join(dir, 'had'), at: 0, length: 4, sha256: sha(block.subarray(0, 4)) },
        { final: path.join(dir, 'link'), at: 4, length: 4, sha256: sha(block.subarray(4, 8)) },
      ],
      false,
    );
    expect(out[0]).toBeNull();
    expect(out[1]).toMatchObject({ code: 'EEXIST', permanent: true });
    expect(fs.lstatSync(path.join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(dir).filter((n) => n.includes('fastrans-tmp'))).toEqual([]);
    // Bytes of the same length that differ, or a FIFO under the name: refused, left as they are, nothing waits.
    fs.writeFileSync(path.join(dir, 'other'), 'SAME');
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    const refused = await fileThread.write(
      block,
      [
        { final: path.join(dir, 'other'), at: 0, length: 4, sha256: sha(block.subarray(0, 4)) },
        { final: path.join(dir, 'fifo'), at: 4, length: 4, sha256: sha(block.subarray(4, 8)) },
      ],
      false,
    );
    expect(refused.map((o) => o?.code)).toEqual(['EEXIST', 'EEXIST']);
    expect(fs.readFileSync(path.join(dir, 'other'), 'utf8')).toBe('SAME');
    expect(fs.lstatSync(path.join(dir, 'fifo')).isFIFO()).toBe(true);
    // The same for a large file's partial named at the end.
    fs.writeFileSync(path.join(dir, 'part'), 'same');
    await fileThread.publish(path.join(dir, 'part'), path.join(dir, 'had'), false);
    expect(fs.existsSync(path.join(dir, 'part'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'had'), 'utf8')).toBe('same');
  });

  it('names a file, never over an existing one unless asked', async () => {
    fs.writeFileSync(path.join(dir, 'part'), 'data');
    fs.writeFileSync(path.join(dir, 'there'), 'keep');
    await expect(
      fileThread.publish(path.join(dir, 'part'), path.join(dir, 'there'), false),
    ).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(fs.readFileSync(path.join(dir, 'there'), 'utf8')).toBe('keep');
    await fileThread.publish(path.join(dir, 'part'), path.join(dir, 'final'), false);
    expect(fs.readFileSync(path.join(dir, 'final'), 'utf8')).toBe('data');
    expect(fs.existsSync(path.join(dir, 'part'))).toBe(false);
  });
});
