import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { preparePartial } from './transfer-ops';

describe("preparePartial: a partial's name is known in advance, what is found there may be anyone's", () => {
  let dir = '';
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  it('refuses a FIFO at once instead of waiting on it for a reader (one call held a pool thread for good)', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prepare-partial-'));
    const fifo = path.join(dir, '.big.bin.0123456789ab.efile-part');
    execFileSync('mkfifo', [fifo]);
    await expect(preparePartial(fifo, 10)).rejects.toBeTruthy();
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('refuses a link in its place, and makes a new partial at its size', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prepare-partial-'));
    const target = path.join(dir, 'victim');
    fs.writeFileSync(target, 'keep me');
    const link = path.join(dir, '.a.bin.0123456789ab.efile-part');
    fs.symlinkSync(target, link);
    await expect(preparePartial(link, 10)).rejects.toBeTruthy();
    expect(fs.readFileSync(target, 'utf8')).toBe('keep me');
    const fresh = path.join(dir, '.b.bin.0123456789ab.efile-part');
    await preparePartial(fresh, 10);
    expect(fs.statSync(fresh).size).toBe(10);
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
  });
});
