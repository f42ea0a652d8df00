import { CommonCodes, FileCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { conflictError, fsError, notRegular } from './file-ops';
import { tempName, TEMP_SUFFIX } from './names';
import type { EntryStat, ReadOutcome, SmallFileIn, SmallOutcome, SmallRead } from './small-store';
import { StoreThreads } from './store-pool';
import type { HeldFolder } from './transfer-ops';
import { EfileText } from '../messages';

/**
 * At most this many files go to a store thread in one message: a batch's 64 files at once are four messages, spread
 * over the threads.
 */
const GROUP_FILES = 16;

interface Waiting extends SmallFileIn {
  ok: () => void;
  fail: (e: unknown) => void;
}

interface Group {
  folder: HeldFolder;
  overwrite: boolean;
  mode: number;
  fixMode: boolean;
  files: Waiting[];
}

/** A small file read whole, with the SHA-256 of its bytes. */
export interface SmallFileRead {
  data: Buffer;
  sha256: string;
}

interface WaitingRead extends SmallRead {
  ok: (read: SmallFileRead) => void;
  fail: (e: unknown) => void;
}

/** The outcome of one file as the error efile answers with (the codes the per-file calls gave before). */
function errorOf(o: Exclude<SmallOutcome, null> | Exclude<ReadOutcome, { data: Uint8Array }>): Error {
  if ('checksum' in o) return new AppError(CommonCodes.verificationFailed, EfileText.checksumDiffers);
  if ('conflict' in o) return conflictError(o.conflict === 'folder');
  if ('notRegular' in o) return notRegular();
  if ('moved' in o) return new AppError(FileCodes.permissionDenied, EfileText.folderMovedWhileRead);
  try {
    return fsError(Object.assign(new Error(o.message), { code: o.errno }));
  } catch (e) {
    return e as Error;
  }
}

/**
 * Small files of fast-transfer batches, stored a group at a time: the calls for one held folder that arrive in the
 * same turn of the event loop (a batch starts up to 64 at once) go to the store thread together, and each call gets
 * its own outcome. small-store.ts says why a thread and one group.
 */
export class SmallFiles {
  private readonly thread: StoreThreads;
  private readonly open = new Map<string, Group>();
  private reads: WaitingRead[] | null = null;

  constructor(threads = 4) {
    this.thread = new StoreThreads(threads);
  }

  /**
   * Reads the regular file at `host` whole (at most `maxBytes`), with the checks of file-ops' `openForReadSized`,
   * and hashes it. The reads asked for in one turn of the event loop go to the thread together (a download batch
   * asks for 32 at once).
   */
  read(host: string, maxBytes: number): Promise<SmallFileRead> {
    return new Promise<SmallFileRead>((ok, fail) => {
      if (!this.reads) {
        const group: WaitingRead[] = [];
        this.reads = group;
        setImmediate(() => this.sendReads(group));
      }
      this.reads.push({ host, maxBytes, ok, fail });
      if (this.reads.length >= GROUP_FILES) this.sendReads(this.reads);
    });
  }

  /** lstat of each of `hosts`, in a store thread (a walk's entries of one folder, already a group). */
  stats(hosts: string[]): Promise<EntryStat[]> {
    return this.thread.stats(hosts);
  }

  private sendReads(group: WaitingRead[]) {
    if (this.reads === group) this.reads = null;
    const files = group.splice(0);
    if (files.length === 0) return;
    this.thread.read(files.map(({ host, maxBytes }) => ({ host, maxBytes }))).then(
      (out) =>
        files.forEach((f, i) => {
          const o = out[i] ?? { errno: 'EIO', message: 'no outcome' };
          if ('data' in o)
            f.ok({
              data: Buffer.from(o.data.buffer, o.data.byteOffset, o.data.byteLength),
              sha256: o.sha256,
            });
          else f.fail(errorOf(o));
        }),
      (e: unknown) => files.forEach((f) => f.fail(e)),
    );
  }

  /**
   * Stores `data` as `name` in the held `folder` (checked against `sha256`; `mode` at the create, a fchmod with
   * `fixMode`; never over an item unless `overwrite`, never over a folder). `key` names the folder and the
   * options: calls with the same key may share a group.
   */
  store(
    key: string,
    folder: HeldFolder,
    name: string,
    data: Buffer[],
    sha256: string,
    o: { overwrite: boolean; mode: number; fixMode: boolean },
  ): Promise<void> {
    return new Promise<void>((ok, fail) => {
      let g = this.open.get(key);
      if (!g) {
        const fresh: Group = { folder, ...o, files: [] };
        this.open.set(key, fresh);
        setImmediate(() => this.send(key, fresh));
        g = fresh;
      }
      const bytes = data.length === 1 ? data[0]! : Buffer.concat(data);
      g.files.push({ name, tmp: tempName(name, TEMP_SUFFIX), data: bytes, sha256, ok, fail });
      if (g.files.length >= GROUP_FILES) this.send(key, g);
    });
  }

  private send(key: string, g: Group) {
    if (this.open.get(key) === g) this.open.delete(key);
    if (g.files.length === 0) return;
    const files = g.files;
    g.files = [];
    this.thread
      .store({
        dir: g.folder.dir,
        overwrite: g.overwrite,
        mode: g.mode,
        fixMode: g.fixMode,
        files: files.map(({ name, tmp, data, sha256 }) => ({ name, tmp, data, sha256 })),
      })
      .then(
        (out) =>
          files.forEach((f, i) => {
            const o = out[i];
            if (o === null) f.ok();
            else f.fail(errorOf(o ?? { errno: 'EIO', message: 'no outcome' }));
          }),
        (e: unknown) => files.forEach((f) => f.fail(e)),
      );
  }

  /** Fails what waits for a group and what the thread has (the server is stopping); a later call starts anew. */
  close(): Promise<void> {
    for (const f of this.reads?.splice(0) ?? []) f.fail(new Error('the store is closing'));
    this.reads = null;
    for (const g of this.open.values()) {
      const files = g.files;
      g.files = [];
      for (const f of files) f.fail(new Error('the store is closing'));
    }
    this.open.clear();
    return this.thread.close();
  }
}
