import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { partialOf, sha256File, writeAt } from './local';
import { RemoteError } from './remote-error';

/**
 * A download's partial file in a folder that other accounts can write (a group's project folder): its name is known
 * in advance, so what another account put there first must never receive the user's bytes or lead them elsewhere.
 */
describe("a download's partial file in a shared folder", () => {
  let dir = '';
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = '';
  });
  const shared = () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-partial-'));
    fs.chmodSync(dir, 0o777);
    return dir;
  };

  it("is not written through a link to one of the user's files (it was: the file was overwritten)", async () => {
    const d = shared();
    const victim = path.join(d, 'victim');
    fs.writeFileSync(victim, 'the bashrc');
    const final = path.join(d, 'big.bin');
    fs.symlinkSync(victim, partialOf(final));
    await expect(writeAt(partialOf(final), 16, 0, Buffer.alloc(16, 1))).rejects.toBeInstanceOf(RemoteError);
    expect(fs.readFileSync(victim, 'utf8')).toBe('the bashrc');
  });

  it('is not written through a second name (a hard link) of one of the user’s files', async () => {
    const d = shared();
    const victim = path.join(d, 'victim');
    fs.writeFileSync(victim, 'the bashrc');
    const final = path.join(d, 'big.bin');
    fs.linkSync(victim, partialOf(final));
    await expect(writeAt(partialOf(final), 16, 0, Buffer.alloc(16, 1))).rejects.toBeInstanceOf(RemoteError);
    expect(fs.readFileSync(victim, 'utf8')).toBe('the bashrc');
  });

  const nobody = process.getuid?.() === 0 && spawnSync('id', ['-u', 'nobody']).status === 0;
  if (!nobody) console.warn('SKIPPED (loudly): a partial made by another account needs root and `nobody`');
  it.skipIf(!nobody)(
    'is not a file another account made there first (its owner would read the download)',
    async () => {
      const d = shared();
      const final = path.join(d, 'big.bin');
      execFileSync('runuser', ['-u', 'nobody', '--', 'sh', '-c', `umask 0; : > '${partialOf(final)}'`]);
      await expect(writeAt(partialOf(final), 16, 0, Buffer.alloc(16, 1))).rejects.toBeInstanceOf(RemoteError);
      expect(fs.statSync(partialOf(final)).size).toBe(0);
    },
  );

  it('is made, written at its offsets and hashed as before; a FIFO is not hashed', async () => {
    const d = shared();
    const p = partialOf(path.join(d, 'ok.bin'));
    await writeAt(p, 8, 4, Buffer.from('abcd'));
    await writeAt(p, 8, 0, Buffer.from('wxyz'));
    expect(fs.readFileSync(p, 'utf8')).toBe('wxyzabcd');
    expect(await sha256File(p)).toMatch(/^[0-9a-f]{64}$/);
    const fifo = path.join(d, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(sha256File(fifo)).rejects.toThrow(/not a file/);
  });
});
