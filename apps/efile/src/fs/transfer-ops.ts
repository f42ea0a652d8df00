import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { constants, type Stats } from 'node:fs';
import { FileCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import { errno } from './errno';
import { fsError, openForRead } from './file-ops';
import { isInternalName } from './names';
import { atFolder, atHost, lstatChecked } from './anchored';
import { atListedFolder } from './listing';
import { entryStatOf, type EntryStat } from './small-store';
import { EfileText } from '../messages';

/**
 * The file-system calls of fast transfer (issue 11 §2) that the general operations of file-ops do not cover: the
 * preallocated partial, whole-file digests, small files stored through a held folder, the download walk. Only the
 * user file system (userfs/local.ts) calls them, in this process in single mode and inside the user's worker in unix
 * mode. Host paths come from the path resolver (real, inside the user's roots); the final component is opened with
 * O_NOFOLLOW and names are reached through anchored folders.
 */

const noSpace = (e: unknown) => errno(e) === 'ENOSPC' || errno(e) === 'EDQUOT';
const mapError = (e: unknown): never => {
  if (isAppError(e)) throw e;
  if (noSpace(e)) throw new AppError(FileCodes.noSpace);
  return fsError(e);
};

/**
 * Creates (or reopens) the hidden partial file of an upload and gives it its final size at once: the ranges are
 * written at their offsets, so nothing is assembled at the end (rclone's way), and a full disk shows now, not
 * after hours.
 */
export async function preparePartial(partialHost: string, size: number): Promise<void> {
  // Reached through its folder's descriptor (anchored): a parent swapped for a link since the check is refused.
  const fh = await atHost(partialHost, (p) =>
    fs.open(p, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600),
  ).catch(mapError);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new AppError(FileCodes.permissionDenied, EfileText.partialNotRegular);
    if (st.size !== size)
      await fh.truncate(size).catch(async (e: unknown) => {
        // Refused (a size past the file system's limit: EFBIG): an empty partial, just made, is not left behind
        // with no session to sweep it (found from outside).
        if (st.size === 0) await atHost(partialHost, (p) => fs.unlink(p)).catch(() => undefined);
        mapError(e);
      });
  } finally {
    await fh.close();
  }
}

/** SHA-256 of a file, read sequentially in 1 MiB blocks. */
export async function sha256Of(host: string): Promise<{ sha256: string; size: number }> {
  const fh = await openForRead(host);
  const hash = crypto.createHash('sha256');
  const buf = Buffer.allocUnsafe(1024 * 1024);
  let size = 0;
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      size += bytesRead;
    }
  } finally {
    await fh.close();
  }
  return { sha256: hash.digest('hex'), size };
}

/** Size of a regular file at `host` (no link followed), or null. */
export async function fileSize(host: string): Promise<number | null> {
  const st = await fs.lstat(host).catch(() => null);
  return st?.isFile() ? st.size : null;
}

/** A folder held open (anchored) for a whole tar batch: its small files are made and named through it. */
export interface HeldFolder {
  /** The anchored path of the folder: names below it are reached through its descriptor. */
  dir: string;
  release(): Promise<void>;
}

/**
 * Opens a folder once for a batch through `atFolder` (checked to be the resolved folder, no link swapped in) and
 * keeps it open until `release`: each small file then costs its own calls only, not an open, a check and a close
 * of its folder (which were about half of a small file's calls).
 */
export async function holdFolder(dirHost: string): Promise<HeldFolder> {
  const { args, release } = await hold<[string]>((fn) => atFolder(dirHost, fn));
  return { dir: args[0], release };
}

/**
 * Keeps open what an `at…` helper (`atFolder`, `atListedFolder`) opens, until `release`: those close it as soon as
 * their callback settles, and a batch, or a generator that yields between reads, cannot do its work inside one.
 * Rejects with the helper's refusal when it opens nothing.
 */
function hold<A extends unknown[]>(
  at: (fn: (...args: A) => Promise<void>) => Promise<void>,
): Promise<{ args: A; release: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    let free!: () => void;
    const released = new Promise<void>((r) => (free = r));
    const held = at(async (...args) => {
      resolve({
        args,
        release: async () => {
          free();
          await held;
        },
      });
      await released;
    });
    held.catch((e: unknown) => reject(e instanceof Error ? e : new Error(String(e))));
  });
}

/** One entry of a folder walk: path relative to the walk's base, `dir` or a file with its size. */
export interface WalkEntry {
  rel: string;
  dir: boolean;
  size: number;
  mtime: number;
}

/** Entries of a folder whose lstat goes out at once during a walk (one after another was most of its time). */
const WALK_STATS_AT_ONCE = 64;

/** lstat of each of a folder's entries: each its kind, size and time, or null where it is gone. */
export type StatMany = (hosts: string[]) => Promise<EntryStat[]>;

/** Through the thread pool, all at once (the walk's default where no store thread is at hand). */
const statOnPool: StatMany = (hosts) =>
  Promise.all(hosts.map(async (h) => entryStatOf(await fs.lstat(h).catch(() => null))));

/**
 * Walks the chosen items depth-first without holding a whole tree in memory: one folder open at a time, its names
 * read in batches, a folder's own files before its sub-folders, each folder before what it holds. Links are listed
 * by lstat and skipped (a link could lead outside the user's roots); our own partial and temp files are skipped.
 * Yields paths relative to `baseHost`, in groups: a folder alone, then its files WALK_STATS_AT_ONCE at most.
 *
 * A folder's entries are lstat'ed WALK_STATS_AT_ONCE at a time by `stat`: the user file system gives its store
 * threads, where they are synchronous calls one after another; through the thread pool (statOnPool), 10,000 files
 * took 230-410 ms to walk against 70 ms for the same calls made in one thread, the hand-offs being most of a
 * fast-transfer download's manifest (PERFORMANCE.md, "The thread pool, and the manifest").
 *
 * Nothing is looked at by path after the resolver's check: the item is lstat'ed through a checked descriptor of its
 * own (`lstatChecked`), and every folder is read through its own descriptor (`atListedFolder`: opened O_DIRECTORY|O_NOFOLLOW,
 * checked to be the real path the walk reached it by, its names read and lstat'ed as /proc/self/fd/<fd>/<name>;
 * the store threads are threads of this process and share its descriptors). The walk used to lstat a folder by
 * path and list it by path later: a user who swapped the folder for a link in between got it listed through the
 * link, and the names and sizes beyond it (another user's folder, /etc) went into the download's manifest. A folder
 * swapped for a link now answers "1030"; one swapped back and forth is read as the real folder or not at all.
 */
export async function* walk(
  itemHost: string,
  baseHost: string,
  stat: StatMany = statOnPool,
): AsyncGenerator<WalkEntry[]> {
  // From a descriptor of the item itself (O_PATH: no read right on its folder needed), checked to be where it was.
  const st = await lstatChecked(itemHost).catch(mapError);
  if (!st) throw new AppError(FileCodes.notFound);
  const rel = path.relative(baseHost, itemHost).split(path.sep).join('/');
  if (st.isFile()) {
    yield [{ rel, dir: false, size: st.size, mtime: st.mtimeMs }];
    return;
  }
  if (st.isDirectory()) yield* walkFolder(itemHost, rel, st.mtimeMs, stat);
}

async function* walkFolder(
  host: string,
  rel: string,
  mtime: number,
  stat: StatMany,
): AsyncGenerator<WalkEntry[]> {
  // Yielded before the folder is opened, as it always was: a folder the user cannot read is listed, then refused.
  yield [{ rel, dir: true, size: 0, mtime }];
  const folders: { name: string; mtime: number }[] = [];
  // Held (not read inside atListedFolder's callback) so that its groups are yielded as they are read; released
  // before its sub-folders are walked, so one folder is open at a time whatever the depth.
  const held = await hold<[string, Stats]>((fn) => atListedFolder(host, fn)).catch(mapError);
  const [dir] = held.args;
  try {
    /** The files among `names`, in order; their folders kept for after the files. */
    const files = async (names: string[]): Promise<WalkEntry[]> => {
      const stats = names.length ? await stat(names.map((n) => `${dir}/${n}`)) : [];
      const out: WalkEntry[] = [];
      for (let i = 0; i < names.length; i++) {
        const s = stats[i];
        if (s?.kind === 'file')
          out.push({ rel: `${rel}/${names[i]}`, dir: false, size: s.size, mtime: s.mtime });
        else if (s?.kind === 'dir') folders.push({ name: names[i]!, mtime: s.mtime });
      }
      return out;
    };
    let names: string[] = [];
    // Streamed (256 entries a read), not one readdir: a folder of a million files is not held whole. Opened as
    // /proc/self/fd/<fd>, it is the held folder itself, whatever its path leads to meanwhile.
    const entries = await fs.opendir(dir, { bufferSize: 256 }).catch(mapError);
    for await (const d of entries) {
      if (isInternalName(d.name) || d.isSymbolicLink() || !(d.isDirectory() || d.isFile())) continue;
      names.push(d.name);
      if (names.length < WALK_STATS_AT_ONCE) continue;
      const group = await files(names);
      names = [];
      if (group.length) yield group;
    }
    const last = await files(names);
    if (last.length) yield last;
  } finally {
    await held.release();
  }
  // By the real path the walk reached it by: atListedFolder checks the folder opened there is that path.
  for (const f of folders) yield* walkFolder(path.join(host, f.name), `${rel}/${f.name}`, f.mtime, stat);
}
