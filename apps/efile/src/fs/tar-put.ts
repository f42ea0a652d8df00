import fs from 'node:fs/promises';
import path from 'node:path';
import { constants, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import { anchor, atFolder, checkOpened, DIR_FLAGS } from './anchored';
import { errno } from './errno';
import { conflictError, fsError, renameNoReplace, replaceFile } from './file-ops';
import { PARTIAL_SUFFIX, tempName, validateName, validateRelativePath } from './names';
import type { PathResolver, UserScope } from '@hpc/cluster-kit';
import { removeTree } from './safe-remove';
import { readTar } from './tar-extract';

export interface TarPutResult {
  files: number;
  dirs: number;
  skipped: string[];
  bytes: number;
}

/** The hidden staging folder of one tar extraction: `.tar.<12 hex>.efile-part` in the folder extracted into. */
const stagingName = () => tempName('tar', PARTIAL_SUFFIX);
/** Exactly the names `stagingName` makes, and nothing a user could mean to keep under another name. */
export const STAGING_NAME = /^\.tar\.[0-9a-f]{12}\.efile-part$/;

/**
 * Removes the staging folders an extraction left in the folder `dirHost` (efile was killed mid-extraction: the
 * `finally` below never ran) that nobody has written in for `olderThanMs` (a running extraction writes into its
 * own all the time). Only folders named as `stagingName` names them, never a link (listed by lstat, removed by
 * `removeTree`, which follows none), and the folder itself is reached as it is now (`atFolder`). Returns how many
 * went.
 */
export async function sweepStaging(dirHost: string, olderThanMs: number): Promise<number> {
  const names = await atFolder(dirHost, async (dir) => {
    const stale: string[] = [];
    for (const d of await fs.readdir(dir, { withFileTypes: true })) {
      if (!STAGING_NAME.test(d.name) || !d.isDirectory()) continue;
      const st = await fs.lstat(`${dir}/${d.name}`).catch(() => null);
      if (st?.isDirectory() && st.mtimeMs < olderThanMs) stale.push(d.name);
    }
    return stale;
  });
  let n = 0;
  for (const name of names) {
    await removeTree(path.join(dirHost, name), { force: true });
    n++;
  }
  return n;
}

/** Creates the missing folders of `base/segs…` (each checked inside the scope by real path). */
async function ensureDirs(resolver: PathResolver, scope: UserScope, base: string, segs: string[]) {
  for (let i = 1; i <= segs.length; i++) {
    const d = await resolver.resolve(scope, `${base}/${segs.slice(0, i).join('/')}`, { mustExist: false });
    if (d.stat && !d.stat.isDirectory()) throw new AppError(FileCodes.notAFolder);
    if (!d.stat)
      await fs.mkdir(d.host).catch((e: unknown) => (errno(e) === 'EEXIST' ? undefined : fsError(e)));
  }
}

/**
 * Extracts a tar stream safely into the folder `base` of the scope: no absolute paths, no `..`, no links or
 * devices. The whole archive is first read into a hidden staging folder of this upload (`.tar.<id>.efile-part`,
 * reached through its open descriptor, so swapping it for a link cannot redirect the writes); only once the archive
 * has been read whole and ends as a tar must are its folders made and its files renamed into place. A body that is
 * cut off or is not tar ("1010") leaves nothing but the staging folder, which is removed before the answer.
 * `fileMode` is 0o644 in single mode and 0o666 in a user's worker (the user's umask then decides).
 */
export async function extractTarInto(
  resolver: PathResolver,
  scope: UserScope,
  base: string,
  body: AsyncIterable<Buffer>,
  overwrite: boolean,
  fileMode: number,
): Promise<TarPutResult> {
  const baseDir = await resolver.resolve(scope, base);
  if (!baseDir.stat?.isDirectory()) throw new AppError(FileCodes.notAFolder);
  const r: TarPutResult = { files: 0, dirs: 0, skipped: [], bytes: 0 };
  type Planned = { segs: string[]; entry: string } & (
    { dir: true } | { dir: false; tmp: string; bytes: number }
  );
  const plan: Planned[] = [];
  const stagingHost = path.join(baseDir.host, stagingName());
  await fs.mkdir(stagingHost, { mode: 0o700 }).catch(fsError);
  try {
    const dir = await fs.open(stagingHost, DIR_FLAGS);
    try {
      await checkOpened(dir.fd, stagingHost);
      const at = anchor(dir.fd);
      await readTar(Readable.from(body), async (e, data) => {
        const raw = e.path.replace(/^(\.\/)+/, '');
        if (raw === '' || raw === '.') return;
        let segs: string[];
        try {
          if (raw.startsWith('/')) throw new AppError(FileCodes.specialCharsInPath);
          segs = validateRelativePath(raw);
        } catch {
          r.skipped.push(e.path);
          return;
        }
        if (e.type === 'other') {
          r.skipped.push(e.path);
          return;
        }
        if (e.type === 'dir') {
          plan.push({ segs, entry: e.path, dir: true });
          return;
        }
        const name = String(plan.length);
        const ws = createWriteStream(`${at}/${name}`, {
          flags: (constants.O_CREAT |
            constants.O_EXCL |
            constants.O_WRONLY |
            constants.O_NOFOLLOW) as unknown as string,
          mode: fileMode,
          highWaterMark: 1024 * 1024,
        });
        await pipeline(Readable.from(data()), ws).catch((err: unknown) =>
          isAppError(err) ? Promise.reject(err) : fsError(err),
        );
        const again = await fs.open(`${at}/${name}`, constants.O_RDONLY | constants.O_NOFOLLOW);
        await again.sync();
        await again.close();
        plan.push({
          segs,
          entry: e.path,
          dir: false,
          tmp: path.join(stagingHost, name),
          bytes: ws.bytesWritten,
        });
      });
    } finally {
      await dir.close();
    }
    // The archive was whole: make its folders and move its files into place, in archive order.
    for (const p of plan) {
      try {
        if (p.dir) {
          await ensureDirs(resolver, scope, base, p.segs);
          r.dirs++;
          continue;
        }
        await ensureDirs(resolver, scope, base, p.segs.slice(0, -1));
        const t = await resolver.resolve(scope, `${base}/${p.segs.join('/')}`, {
          follow: false,
          mustExist: false,
        });
        validateName(t.name);
        if (t.stat && (!overwrite || t.stat.isDirectory())) throw conflictError(t.stat.isDirectory());
        if (overwrite && t.stat) await replaceFile(p.tmp, t.host);
        else await renameNoReplace(p.tmp, t.host, false);
        r.files++;
        r.bytes += p.bytes;
      } catch (err) {
        // A full disk or quota stops the upload; any other refusal of one entry skips just that entry.
        if (!isAppError(err) || err.code === FileCodes.noSpace) throw err;
        r.skipped.push(p.entry);
      }
    }
  } finally {
    await removeTree(stagingHost, { force: true }).catch(() => undefined);
  }
  return r;
}
