import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type IPty } from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { INPUT_HIGH_WATER, PtyInput } from './pty-input';

/** A shell whose terminal is raw (as ssh makes it) running `cmd`. */
function rawPty(cmd: string): IPty {
  return spawn('/bin/sh', ['-c', `stty raw -echo; ${cmd}`], { cols: 80, rows: 24, encoding: null });
}
const inputOf = (pty: IPty, drained = () => {}) => {
  const unix = pty as unknown as { fd: number; _socket: { destroyed: boolean } };
  return new PtyInput(unix.fd, () => !unix._socket.destroyed, drained);
};
const exited = (pty: IPty) => new Promise<void>((r) => pty.onExit(() => r()));
/** The shell has had time to make its terminal raw. */
const ready = () => new Promise<void>((r) => setTimeout(r, 300));

describe('input into a pty', () => {
  const ptys: IPty[] = [];
  let dir = '';
  afterEach(() => {
    for (const p of ptys.splice(0)) p.kill('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  it('never stops the event loop while the pty is full, and says when to stop reading the page', async () => {
    // node-pty's own write spun in the event loop here, for good: this test would not get past the paste.
    const pty = rawPty('sleep 30');
    ptys.push(pty);
    await ready();
    let drained = 0;
    const input = inputOf(pty, () => drained++);
    let ticks = 0;
    const tick = setInterval(() => ticks++, 10);
    const answers = [input.write(Buffer.alloc(512 * 1024, 'a')), input.write(Buffer.alloc(768 * 1024, 'b'))];
    await new Promise((r) => setTimeout(r, 500));
    clearInterval(tick);
    expect(answers).toEqual([true, false]);
    expect(ticks).toBeGreaterThan(10);
    // The pty took its buffer's worth and no more; the rest waits, and nobody was told to read on.
    expect(input.pending).toBeGreaterThan(INPUT_HIGH_WATER - 64 * 1024);
    expect(drained).toBe(0);
    input.close();
    expect(input.pending).toBe(0);
  });

  it('delivers a paste larger than the pty holds, whole and in order, and says when it drained', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pty-input-'));
    const out = path.join(dir, 'out');
    const size = 3 * 1024 * 1024;
    // The reader starts late: the first megabytes wait in the queue.
    const pty = rawPty(`sleep 1; head -c ${size} > ${out}`);
    ptys.push(pty);
    await ready();
    let drained = 0;
    const input = inputOf(pty, () => drained++);
    const sent = Buffer.alloc(size);
    for (let i = 0; i < size; i++) sent[i] = 97 + ((i * 7 + (i >> 12)) % 26);
    const answers: boolean[] = [];
    for (let at = 0; at < size; at += 256 * 1024)
      answers.push(input.write(sent.subarray(at, at + 256 * 1024)));
    expect(answers.includes(false)).toBe(true);
    await exited(pty);
    expect(fs.readFileSync(out).equals(sent)).toBe(true);
    expect(drained).toBeGreaterThanOrEqual(1);
    expect(input.pending).toBe(0);
  });

  it('writes nothing once the pty has closed', async () => {
    const pty = rawPty('sleep 30');
    ptys.push(pty);
    await ready();
    const input = inputOf(pty);
    pty.kill('SIGKILL');
    await exited(pty);
    await new Promise((r) => setTimeout(r, 100));
    expect(input.write(Buffer.from('after the end'))).toBe(true);
    expect(input.pending).toBe(0);
  });
});
