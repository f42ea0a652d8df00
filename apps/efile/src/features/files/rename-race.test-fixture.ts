import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';

/**
 * Two folders renamed to one name at the same moment, `rounds` times (review finding 1: rename(2) replaces an empty
 * folder, so a look at the name followed by the rename let both succeed and one folder vanish). Each round makes
 * `A` (holding a file) and an empty `B` in a folder of its own, renames both to `X` at once, and notes what is wrong:
 * anything but one `0` and one `1023`, or a folder or the file gone. Returns those notes: none when all held.
 */
export async function raceFolderRenames(o: {
  rounds: number;
  /** Round i's folder: as the host sees it, and as the user names it. */
  host: (i: number) => string;
  cluster: (i: number) => string;
  rename: (path: string, newName: string) => Promise<LightMyRequestResponse>;
  /** Gives the round's folder to the user (unix mode), before the race. */
  own?: (host: string) => void;
}): Promise<string[]> {
  const bad: string[] = [];
  for (let i = 0; i < o.rounds; i++) {
    const d = o.host(i);
    fs.mkdirSync(`${d}/A`, { recursive: true });
    fs.writeFileSync(`${d}/A/data.txt`, 'precious');
    fs.mkdirSync(`${d}/B`);
    o.own?.(d);
    const [a, b] = await Promise.all([
      o.rename(`${o.cluster(i)}/A`, 'X'),
      o.rename(`${o.cluster(i)}/B`, 'X'),
    ]);
    const codes = [a.json<{ code: string }>().code, b.json<{ code: string }>().code].sort();
    const names = fs.readdirSync(d).sort();
    const found = names.some((n) => fs.existsSync(`${d}/${n}/data.txt`));
    if (codes.join() !== '0,1023' || names.length !== 2 || !names.includes('X') || !found)
      bad.push(`round ${i}: codes ${codes.join()} names ${names.join()} data ${found}`);
  }
  return bad;
}
