import fs from 'node:fs/promises';
import path from 'node:path';
import { constants, type Stats } from 'node:fs';
import type { Writable } from 'node:stream';
import { CommonCodes, FileCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import { BLOCK, BlockWriter, takeBlock } from '../fs/block-pool';
import { copyTree, measure, type Progress } from '../fs/copy-tree';
import { errno } from '../fs/errno';
import {
  atomicWriteFile,
  conflictError,
  fsError,
  makeDir,
  openForRead,
  openForReadSized,
  openRegular,
  removeEntry,
  renameNoReplace,
  replaceFile,
  touchFile,
} from '../fs/file-ops';
import { childFolders, listDirectory } from '../fs/listing';
import { countHome } from '../fs/home-usage';
import { PARTIAL_SUFFIX, TEMP_SUFFIX, tempName, validateName } from '../fs/names';
import { isUnder, type PathResolver, type Resolved } from '@hpc/cluster-kit';
import { atHost } from '../fs/anchored';
import { removeTree } from '../fs/safe-remove';
import { SmallFiles } from '../fs/small-files';
import * as tops from '../fs/transfer-ops';
import { extractTarInto, sweepStaging } from '../fs/tar-put';
import { writeStreamAt } from '../fs/write-at';
import { collectEntries, zipArchive } from '../fs/zip-stream';
import type {
  FsScope,
  Info,
  PartialHandle,
  ReadHandle,
  SmallReadResult,
  StatInfo,
  UserFs,
  WalkEntry,
  ZipHandle,
} from './types';
import { EfileText } from '../messages';

/** A home's count stops after this many entries (its figure is then a lower bound, said so). */
const HOME_USAGE_MAX_ENTRIES = 500_000;

const parentOf = (p: string) => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));
const joinCluster = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

export const statInfo = (s: Stats): StatInfo => ({
  isDir: s.isDirectory(),
  isFile: s.isFile(),
  isLink: s.isSymbolicLink(),
  size: s.size,
  mtimeMs: s.mtimeMs,
  mode: s.mode,
  uid: s.uid,
  gid: s.gid,
  dev: s.dev,
  ino: s.ino,
});

const info = (r: Resolved): Info => ({
  clusterPath: r.clusterPath,
  host: r.host,
  parentHost: r.parentHost,
  name: r.name,
  root: r.root,
  stat: r.stat ? statInfo(r.stat) : null,
});

/** Runs `fn`, turning any errno that escaped into the spec's code (a 500 only for what is truly unexpected). */
async function coded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isAppError(e) || errno(e) === undefined) throw e;
    return fsError(e);
  }
}

/**
 * Writes bytes start..end of an open file to `out` from pooled blocks (`BlockWriter`: two in flight, each reused
 * once the socket has taken it). A read stream piped to the response allocates a fresh block per read instead; on
 * this VM a download then ran in one of two modes, ~1 or ~3 GiB/s. Stops when the client goes away; a file that
 * shrinks under the download ends the output early (the client sees fewer bytes than announced).
 */
export async function pumpRange(fh: fs.FileHandle, out: Writable, start: number, end: number): Promise<void> {
  const w = new BlockWriter(out);
  try {
    for (let pos = start; pos <= end && !w.gone;) {
      const block = takeBlock();
      const { bytesRead } = await fh.read(block, 0, Math.min(BLOCK, end - pos + 1), pos);
      if (bytesRead === 0) throw new Error('the file shrank during the download');
      pos += bytesRead;
      await w.send(block, bytesRead);
    }
    await w.end();
  } catch {
    out.destroy();
  }
}

/** Reads into all of `into` from `position`, as many calls as the kernel wants; fewer bytes only at the file's end. */
async function readFully(fh: fs.FileHandle, into: Buffer, position: number): Promise<number> {
  let at = 0;
  while (at < into.length) {
    const { bytesRead } = await fh.read(into, at, into.length - at, position + at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return at;
}

/**
 * How long a folder of a fast-transfer batch stays open after its last small file (the next files of a batch, read
 * from the tar meanwhile, usually arrive well within this).
 */
const HOLD_LINGER_MS = 1000;

interface Held {
  folder: Promise<tops.HeldFolder>;
  users: number;
  timer: NodeJS.Timeout | null;
}

export interface LocalOptions {
  /**
   * True inside a worker that runs as the user (unix mode): new files get the user's umask and are left with the
   * owner the kernel gives them. False in single mode, where this process acts for every user with its own
   * rights (permission answers are its own too: `access`).
   */
  asUser?: boolean;
}

/**
 * The operations on a user's files, run in this process (DESIGN §7, issue 10 §1): in single mode for every user,
 * in unix mode inside each user's worker. Every path goes through the resolver (the user's roots; links leading
 * out refused) and every change through the anchored operations of fs/ (a folder swapped for a link meanwhile is
 * not followed): in unix mode they stay as defence in depth behind the kernel's own checks.
 */
export class LocalUserFs implements UserFs {
  private readonly asUser: boolean;
  /** Folders held open for small files of fast-transfer batches, by scope and host path (see `storeSmall`). */
  private readonly held = new Map<string, Held>();
  /** The small files of those batches, stored a group at a time in the store thread. */
  private readonly small = new SmallFiles();
  /** See `smallMode`. */
  private smallModeOnce: { mode: number; fixMode: boolean } | null = null;

  constructor(
    readonly resolver: PathResolver,
    opts: LocalOptions = {},
  ) {
    this.asUser = opts.asUser ?? false;
  }

  private inside(s: FsScope) {
    return (real: string) => this.resolver.contains(s, real);
  }

  resolve(s: FsScope, p: string, opts?: { follow?: boolean; mustExist?: boolean }) {
    return coded(async () => info(await this.resolver.resolve(s, p, opts)));
  }

  list(s: FsScope, p: string, opts: Parameters<UserFs['list']>[2]) {
    return coded(async () => {
      const dir = await this.resolver.resolve(s, p).catch((e: unknown) => {
        throw isAppError(e) && e.code === FileCodes.notFound ? new AppError(FileCodes.dirNotFound) : e;
      });
      const { list, total } = await listDirectory(dir.host, dir.clusterPath, opts, this.inside(s));
      return { path: dir.clusterPath, list, total };
    });
  }

  mkdir(s: FsScope, p: string) {
    return coded(async () => {
      const t = await this.resolver.resolve(s, p, { follow: false, mustExist: false });
      validateName(t.name);
      await makeDir(t);
      return t.clusterPath;
    });
  }

  touch(s: FsScope, p: string) {
    return coded(async () => {
      const t = await this.resolver.resolve(s, p, { follow: false, mustExist: false });
      validateName(t.name);
      await touchFile(t);
      return t.clusterPath;
    });
  }

  remove(s: FsScope, paths: string[], recursive: boolean) {
    return coded(async () => {
      const targets = [];
      for (const p of paths) targets.push(await this.resolver.resolve(s, p, { follow: false }));
      for (const t of targets) await removeEntry(t, recursive);
      return targets.map((t) => t.clusterPath);
    });
  }

  rename(s: FsScope, p: string, newName: string) {
    return coded(async () => {
      const src = await this.resolver.resolve(s, p, { follow: false });
      if (newName === src.name) throw new AppError(CommonCodes.noChange, EfileText.nameNotModified);
      validateName(newName);
      const to = joinCluster(parentOf(src.clusterPath), newName);
      const dst = await this.resolver.resolve(s, to, { follow: false, mustExist: false });
      if (dst.stat) throw conflictError(dst.stat.isDirectory());
      await renameNoReplace(src.host, dst.host, src.stat!.isDirectory());
      return { from: src.clusterPath, to: dst.clusterPath };
    });
  }

  exist(s: FsScope, p: string) {
    return coded(async () => {
      try {
        const t = await this.resolver.resolve(s, p, { mustExist: false });
        if (!t.stat) return { exist: false, isDirectory: false };
        const st = await fs.stat(t.host).catch(() => t.stat!);
        return { exist: true, isDirectory: st.isDirectory() };
      } catch (e) {
        if (isAppError(e) && e.code === FileCodes.notFound) return { exist: false, isDirectory: false };
        throw e;
      }
    });
  }

  /** The home's used space and recent files, walked as whoever runs this (the user, in their worker). */
  homeUsage(s: FsScope, home: string) {
    return coded(async () => {
      const dir = await this.resolver.resolve(s, home);
      if (!dir.stat?.isDirectory()) throw new AppError(FileCodes.notAFolder);
      return countHome(dir.host, {
        maxEntries: HOME_USAGE_MAX_ENTRIES,
        recent: 10,
        clusterPath: dir.clusterPath,
      });
    });
  }

  /** Child folders for the lazy tree of the copy/move dialogs, bounded to 2000 per folder. */
  tree(s: FsScope, p: string) {
    return coded(async () => {
      const dir = await this.resolver.resolve(s, p);
      if (!dir.stat?.isDirectory()) throw new AppError(FileCodes.notAFolder);
      const { names, truncated } = await childFolders(dir.host, this.inside(s), 2000);
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const list = names.map((name) => ({ name, path: joinCluster(dir.clusterPath, name), isLeaf: false }));
      return { list, truncated };
    });
  }

  /**
   * Whether the user may read or write a path: access(2) for this process's identity. In a worker (unix mode) that
   * is the user, so the kernel answers for their uid and groups. In single mode it is the service account, the
   * identity every write of this mode is made as: one identity decides both (issue 25 §2). Evaluating the mode
   * bits for a system user of the compute user's name, as before, refused what the service could write and had
   * just created (a fast upload of 10,000 files stopped at 500 with 1030 on a node where `demo` exists).
   */
  async access(s: FsScope, p: string, action: 'read' | 'write') {
    let host: string;
    try {
      host = (await this.resolver.resolve(s, p)).host;
    } catch (e) {
      // Refused by the resolver or by the kernel (EACCES on the way there): not allowed, whatever is there.
      if (isAppError(e) || errno(e) !== undefined) return false;
      throw e;
    }
    const st = await fs.stat(host).catch(() => null);
    if (!st) return false;
    // Creating in a folder takes write and search (x) permission on it.
    const mode =
      action === 'read'
        ? constants.R_OK
        : st.isDirectory()
          ? constants.W_OK | constants.X_OK
          : constants.W_OK;
    return fs.access(host, mode).then(
      () => true,
      () => false,
    );
  }

  readFile(s: FsScope, host: string, maxBytes: number) {
    return coded(async () => {
      await this.confine(s, host);
      const { fh, size } = await openForReadSized(host);
      try {
        // As large as the file, never more than asked.
        const want = Math.min(size, maxBytes);
        const buf = Buffer.allocUnsafe(want);
        return buf.subarray(0, await readFully(fh, buf, 0));
      } finally {
        await fh.close();
      }
    });
  }

  async readSmall(s: FsScope, hosts: string[], maxBytes: number): Promise<SmallReadResult[]> {
    // A file's refusal is its own result; anything else (not an error of the spec) fails the call.
    const codeOf = (e: unknown): { code: string } => {
      if (isAppError(e)) return { code: e.code };
      throw e;
    };
    // Every path confined first, then every read asked for in one turn: the store threads take them as groups
    // (DECISIONS.md, store threads).
    const confined = await Promise.all(
      hosts.map((h) => coded(() => this.confine(s, h)).then(() => null, codeOf)),
    );
    return Promise.all(
      hosts.map((h, i): Promise<SmallReadResult> =>
        confined[i] ? Promise.resolve(confined[i]) : this.small.read(h, maxBytes).catch(codeOf),
      ),
    );
  }

  writeFile(s: FsScope, p: string, data: string, expectedMtime?: number | null) {
    return coded(async () => {
      const r = await this.resolver.resolve(s, p);
      if (!r.stat?.isFile()) throw new AppError(FileCodes.typeNotAllowed, EfileText.onlyFilesEdited);
      // Checked again here, in the process that writes, right before the rename (a worker's answer to an earlier
      // check could be old by now): null from the wire, where an absent argument travels as null.
      await atomicWriteFile(r, data, expectedMtime);
      return r.clusterPath;
    });
  }

  /**
   * Host paths come back from `resolve` of the same scope; inside a worker they are checked again (a front end
   * must not be able to name an arbitrary host path for the user's worker to open).
   */
  private async confine(s: FsScope, host: string): Promise<void> {
    if (!(await this.resolver.contains(s, path.dirname(host))) && !(await this.resolver.contains(s, host)))
      throw new AppError(FileCodes.permissionDenied);
  }

  async openRead(s: FsScope, host: string): Promise<ReadHandle> {
    return coded(async () => {
      await this.confine(s, host);
      const fh = await openForRead(host);
      const st = await fh.stat();
      return {
        size: st.size,
        mtimeMs: st.mtimeMs,
        pipeTo: (out: Writable, start: number, end: number) => pumpRange(fh, out, start, end),
        readAt: (into: Buffer, position: number) => readFully(fh, into, position),
        close: () => fh.close().catch(() => undefined),
      };
    });
  }

  async openZip(s: FsScope, items: { host: string; name: string }[], fileLimit: number): Promise<ZipHandle> {
    return coded(async () => {
      for (const i of items) await this.confine(s, i.host);
      const entries = await collectEntries(items, this.inside(s), fileLimit);
      const zip = zipArchive(entries);
      const files = entries.filter((e) => !e.dir);
      return {
        size: zip.size,
        fileCount: files.length,
        totalSize: files.reduce((n, e) => n + e.size, 0),
        writeTo: (out: Writable) => zip.writeTo(out),
        close: async () => undefined,
      };
    });
  }

  ensureDir(s: FsScope, p: string) {
    return coded(async () => {
      const d = await this.resolver.resolve(s, p, { mustExist: false });
      if (d.stat && !d.stat.isDirectory())
        throw new AppError(FileCodes.notAFolder, EfileText.isNotAFolder(d.clusterPath));
      if (!d.stat) {
        await fs.mkdir(d.host).catch((e: unknown) => (errno(e) === 'EEXIST' ? undefined : fsError(e)));
        return info(await this.resolver.resolve(s, p));
      }
      return info(d);
    });
  }

  async openPartial(s: FsScope, host: string): Promise<PartialHandle> {
    return coded(async () => {
      await this.confine(s, host);
      if (!path.basename(host).endsWith(PARTIAL_SUFFIX)) throw new AppError(FileCodes.permissionDenied);
      // A FIFO put under the partial's name would block a plain write-only open until a reader comes: refused.
      // Reached through its folder's descriptor (anchored): a parent swapped for a link since the check is refused.
      const fh = await atHost(host, (p) => openRegular(p, constants.O_WRONLY | constants.O_CREAT, 0o600));
      return {
        write: (data, offset) => coded(() => writeStreamAt(fh, data, offset)),
        sync: () => coded(() => fh.datasync()),
        close: () => fh.close().catch(() => undefined),
      };
    });
  }

  finalizePartial(
    s: FsScope,
    a: { target: string; partialName: string; expectedPartial: string; size: number; overwrite: boolean },
  ) {
    return coded(async () => {
      // Re-resolve: the folder must still be where it was (no link swapped in since the upload began).
      const target = await this.resolver.resolve(s, a.target, { follow: false, mustExist: false });
      const partial = path.join(target.parentHost, a.partialName);
      if (partial !== a.expectedPartial)
        throw new AppError(FileCodes.permissionDenied, EfileText.targetMovedDuringUpload);
      const fh = await openRegular(partial, constants.O_RDWR);
      try {
        const st = await fh.stat();
        if (st.size !== a.size) await fh.truncate(a.size);
        // The user's umask decides in unix mode (like any file they create); 0644 as before in single mode.
        await fh.chmod(this.asUser ? 0o666 & ~process.umask() : 0o644);
        await fh.sync();
      } finally {
        await fh.close();
      }
      // A name taken since the upload began ("1021"/"1023") leaves the partial where it is, whole and synced: the
      // user's retry with overwrite (or after moving the other item away) finishes without sending the file again,
      // which for a 100 GB upload is the difference that matters. An abandoned one goes with the upload sweep.
      if (a.overwrite && target.stat && !target.stat.isDirectory()) await replaceFile(partial, target.host);
      else if (target.stat) throw conflictError(target.stat.isDirectory());
      else await renameNoReplace(partial, target.host, false);
    });
  }

  async unlink(s: FsScope, host: string) {
    // Only ever an upload's partial: a front end cannot have a worker remove any other file by host path.
    if (!path.basename(host).endsWith(PARTIAL_SUFFIX)) return;
    if (!(await this.resolver.contains(s, path.dirname(host)))) return;
    await fs.unlink(host).catch(() => undefined);
  }

  /** A partial's host path, checked to be inside the scope and to carry the partial suffix. */
  private async partial(s: FsScope, host: string): Promise<void> {
    await this.confine(s, host);
    if (!path.basename(host).endsWith(PARTIAL_SUFFIX)) throw new AppError(FileCodes.permissionDenied);
  }

  preparePartial(s: FsScope, host: string, size: number) {
    return coded(async () => {
      await this.partial(s, host);
      await tops.preparePartial(host, size);
    });
  }

  fileSize(s: FsScope, host: string) {
    return coded(async () => {
      await this.confine(s, host);
      return tops.fileSize(host);
    });
  }

  sha256(s: FsScope, host: string) {
    return coded(async () => {
      await this.confine(s, host);
      return tops.sha256Of(host);
    });
  }

  /**
   * The folder is opened once (anchored, checked to be the folder the resolver saw, confined to the scope) and kept
   * open while small files are stored in it and HOLD_LINGER_MS after the last: up to 64 run at once per batch, and
   * each then costs its own calls only, not an open, a check and a close of its folder (about half of them). The
   * files that arrive together go to the store thread as one group (fs/small-files.ts).
   */
  /**
   * The mode of a stored small file, worked out once (the process's umask is set when a worker starts and not
   * after; asked per file it was 53 ms of 10,000 files): given at the create, and a fchmod only when the umask would
   * take some of the mode's bits away.
   */
  private smallMode(): { mode: number; fixMode: boolean } {
    if (!this.smallModeOnce) {
      const umask = process.umask();
      const mode = this.asUser ? 0o666 & ~umask : 0o644;
      this.smallModeOnce = { mode, fixMode: (mode & ~umask) !== mode };
    }
    return this.smallModeOnce;
  }
  storeSmall(s: FsScope, dirHost: string, name: string, data: Buffer[], sha256: string, overwrite: boolean) {
    return coded(async () => {
      validateName(name);
      const { mode, fixMode } = this.smallMode();
      const key = `${s.cun}\0${s.roots.join('\0')}\0\0${dirHost}`;
      let h = this.held.get(key);
      if (!h) {
        const entry: Held = {
          folder: this.confine(s, path.join(dirHost, name)).then(() => tops.holdFolder(dirHost)),
          users: 0,
          timer: null,
        };
        entry.folder.catch(() => {
          if (this.held.get(key) === entry) this.held.delete(key);
        });
        this.held.set(key, entry);
        h = entry;
      }
      const e = h;
      e.users++;
      if (e.timer) clearTimeout(e.timer);
      e.timer = null;
      try {
        await this.small.store(`${key}\0${overwrite}`, await e.folder, name, data, sha256, {
          overwrite,
          mode,
          fixMode,
        });
      } finally {
        if (--e.users === 0) {
          e.timer = setTimeout(() => {
            if (e.users > 0 || this.held.get(key) !== e) return;
            this.held.delete(key);
            void e.folder.then(
              (f) => f.release(),
              () => undefined,
            );
          }, HOLD_LINGER_MS);
          e.timer.unref();
        }
      }
    });
  }

  async *walk(s: FsScope, host: string, baseHost: string): AsyncGenerator<WalkEntry[]> {
    await coded(() => this.confine(s, host));
    yield* tops.walk(host, baseHost, (hosts) => this.small.stats(hosts));
  }

  identify(s: FsScope, p: string) {
    return coded(async () => {
      const r = await this.resolver.resolve(s, p);
      // Birth time in ns tells a new folder from a deleted one whose inode number ext4 handed out again.
      const st = await fs.stat(r.host, { bigint: true });
      return { info: info(r), identity: `${st.dev}:${st.ino}:${st.birthtimeNs}`, isDir: st.isDirectory() };
    });
  }

  async sweepStaging(s: FsScope, dirHost: string, olderThanMs: number) {
    // Only inside the scope (the sweep gives the folder itself as the only root).
    if (!(await this.resolver.contains(s, dirHost))) return 0;
    return coded(() => sweepStaging(dirHost, olderThanMs));
  }

  extractTar(s: FsScope, base: string, body: AsyncIterable<Buffer>, overwrite: boolean) {
    // In a worker the user's umask decides the mode, as for any file they create; 0644 in single mode as before.
    return coded(() => extractTarInto(this.resolver, s, base, body, overwrite, this.asUser ? 0o666 : 0o644));
  }

  writeStream(s: FsScope, p: string, body: AsyncIterable<Buffer>, overwrite: boolean) {
    return coded(async () => {
      const t = await this.resolver.resolve(s, p, { follow: false, mustExist: false });
      validateName(t.name);
      if (t.stat && (!overwrite || t.stat.isDirectory())) throw conflictError(t.stat.isDirectory());
      const tmp = path.join(t.parentHost, tempName(t.name, PARTIAL_SUFFIX));
      const fh = await openRegular(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
      let bytes = 0;
      try {
        const counted = (async function* () {
          for await (const b of body) {
            bytes += b.length;
            yield b;
          }
        })();
        await writeStreamAt(fh, counted, 0);
        if (!this.asUser) await fh.chmod(0o644);
        await fh.sync();
        await fh.close();
        if (overwrite && t.stat) await replaceFile(tmp, t.host);
        else await renameNoReplace(tmp, t.host, false);
        return bytes;
      } catch (e) {
        await fh.close().catch(() => undefined);
        await fs.unlink(tmp).catch(() => undefined);
        throw e;
      }
    });
  }

  async transfer(
    s: FsScope,
    a: Parameters<UserFs['transfer']>[1],
    report: Parameters<UserFs['transfer']>[2],
    signal: AbortSignal,
  ): Promise<void> {
    return coded(async () => {
      // The plan was resolved by the caller (possibly in another process): every host path is checked again here.
      for (const { src, dst } of a.items) {
        await this.confine(s, src.host);
        await this.confine(s, dst.host);
      }
      const progress: Progress = { bytesDone: 0, filesDone: 0 };
      const totals = await measure(a.items.map((i) => i.src.host));
      report({ ...progress, bytesTotal: totals.bytes, filesTotal: totals.files });
      const tick = setInterval(() => report({ ...progress }), 250);
      try {
        for (const { src, dst } of a.items) {
          signal.throwIfAborted();
          const isDir = !!src.stat?.isDir;
          if (a.cover && dst.stat) await removeTree(dst.host, { force: true });
          if (a.kind === 'move') {
            try {
              await renameNoReplace(src.host, dst.host, isDir);
              const m = await measure([dst.host]);
              progress.filesDone += m.files;
              progress.bytesDone += m.bytes;
              continue;
            } catch (e) {
              // Across file systems rename(2) fails with EXDEV: fall through to copy, then remove the source.
              if (errno(e) !== 'EXDEV') throw e;
            }
          }
          // Copy (or a move across file systems): temp name, then one rename into place.
          const tmp = path.join(dst.parentHost, tempName(dst.name, TEMP_SUFFIX, a.id.slice(0, 12)));
          try {
            await copyTree(src.host, tmp, progress, signal);
            await renameNoReplace(tmp, dst.host, isDir);
          } catch (e) {
            await removeTree(tmp, { force: true });
            throw e;
          }
          if (a.kind === 'move') await removeTree(src.host, { force: true });
        }
      } finally {
        clearInterval(tick);
        report({ ...progress });
      }
    });
  }

  async close() {
    await this.small.close();
    const all = [...this.held.values()];
    this.held.clear();
    for (const e of all) if (e.timer) clearTimeout(e.timer);
    await Promise.all(
      all.map((e) =>
        e.folder.then(
          (f) => f.release(),
          () => undefined,
        ),
      ),
    );
  }
}

export { isUnder, joinCluster, parentOf };
