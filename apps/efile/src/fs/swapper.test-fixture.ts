import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { expect } from 'vitest';

/**
 * A hostile user's swapper (issue 25 §1.1), a process of its own: in `dir`, the folder `name` and a link
 * `<name>.lnk` to `target` trade places with atomic renames in a tight loop, so `name` is alternately the real
 * folder and a link out. It prints a dot per 100 rounds; tests check it ran. `ids`: run as that user.
 */
export function startSwapper(dir: string, name: string, target: string, ids?: { uid: number; gid: number }) {
  const at = (n: string) => path.join(dir, n);
  fs.symlinkSync(target, at(`${name}.lnk`));
  if (ids) fs.lchownSync(at(`${name}.lnk`), ids.uid, ids.gid);
  const [real, lnk] = [JSON.stringify(`${name}.real`), JSON.stringify(`${name}.lnk`)];
  const loop = `
    const fs = require('node:fs');
    process.chdir(${JSON.stringify(dir)});
    const name = ${JSON.stringify(name)};
    for (let n = 1; ; n++) {
      fs.renameSync(name, ${real});
      fs.renameSync(${lnk}, name);
      fs.renameSync(name, ${lnk});
      fs.renameSync(${real}, name);
      if (n % 100 === 0) process.stdout.write('.');
    }`;
  const child = spawn(process.execPath, ['-e', loop], { stdio: ['ignore', 'pipe', 'inherit'], ...ids });
  let rounds = 0;
  child.stdout.on('data', (b: Buffer) => (rounds += b.length * 100));
  return {
    rounds: () => rounds,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      // Leave `name` the real folder again, whichever rename the kill fell after.
      if (fs.lstatSync(at(name), { throwIfNoEntry: false })?.isSymbolicLink())
        fs.renameSync(at(name), at(`${name}.lnk`));
      if (fs.existsSync(at(`${name}.real`))) fs.renameSync(at(`${name}.real`), at(name));
    },
  };
}

/** The secret folder's names, and a size no file of the walked folder has: none may ever reach an answer. */
export const SECRET_NAMES = ['vault', 'id_rsa', 'plans.txt', 'empty-secret'];
export const SECRET_SIZE = 123_457;

/**
 * The walked folder `<dir>/scope/rt`: `files` files around `sub` (so that the walk takes a while), `sub` with files
 * and a folder of its own; and the secret folder `<dir>/secret` beside it, outside the scope (SECRET_NAMES, a file
 * of SECRET_SIZE bytes, an empty file, a sub-folder).
 */
export function makeRaceTree(dir: string, files: number): { rt: string; secret: string } {
  const rt = path.join(dir, 'scope/rt');
  fs.mkdirSync(path.join(rt, 'sub/mine'), { recursive: true });
  for (let i = 0; i < files; i++) fs.writeFileSync(path.join(rt, `f${i}.txt`), 'x'.repeat(i));
  fs.writeFileSync(path.join(rt, 'sub/notes.txt'), 'mine');
  fs.writeFileSync(path.join(rt, 'sub/mine/a.txt'), 'a');
  const secret = path.join(dir, 'secret');
  fs.mkdirSync(path.join(secret, 'vault'), { recursive: true });
  fs.writeFileSync(path.join(secret, 'vault/id_rsa'), 'key');
  fs.writeFileSync(path.join(secret, 'plans.txt'), 'p'.repeat(SECRET_SIZE));
  fs.writeFileSync(path.join(secret, 'empty-secret'), '');
  return { rt, secret };
}

/** What a race's calls saw: leaked items, how many calls leaked, each outcome's count, calls that saw the real `sub`. */
export interface RaceTally {
  leaks: string[];
  leaky: number;
  codes: Map<string, number>;
  ownSeen: number;
}

/**
 * Runs `calls` calls, four at once (`four`), while the swapper of `dir`/`sub` ↔ a link to `secret` runs, then
 * checks that nothing leaked and that the race was on (the swapper ran, and calls still saw the real `sub`).
 */
export async function expectNoLeakWhileSwapping(
  dir: string,
  secret: string,
  calls: number,
  four: () => Promise<unknown>,
  t: RaceTally,
): Promise<void> {
  const swapper = startSwapper(dir, 'sub', secret);
  try {
    // Let the swapper start before the first call.
    while (swapper.rounds() === 0) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < calls; i += 4) await four();
  } finally {
    await swapper.stop();
  }
  const summary = `${t.leaky} of ${calls} walks leaked; outcomes ${JSON.stringify(Object.fromEntries(t.codes))}`;
  expect([...new Set(t.leaks)], summary).toEqual([]);
  expect(swapper.rounds()).toBeGreaterThan(0);
  expect(t.ownSeen, summary).toBeGreaterThan(0);
  console.log(summary);
}
