import { CommonCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { conflictError, fsError } from './file-ops';
import { tempName, TEMP_SUFFIX } from './names';
import type { SmallFileIn, SmallOutcome } from './small-store';
import { StoreThread } from './store-pool';
import type { HeldFolder } from './transfer-ops';

/** At most this many files go to the store thread in one group (a batch stores up to 64 at once). */
const GROUP_FILES = 64;

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

/** The outcome of one file as the error efile answers with (the codes the per-file calls gave before). */
function errorOf(o: Exclude<SmallOutcome, null>): Error {
  if ('checksum' in o)
    return new AppError(CommonCodes.verificationFailed, 'The checksum of the file differs');
  if ('conflict' in o) return conflictError(o.conflict === 'folder');
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
  private readonly thread = new StoreThread();
  private readonly open = new Map<string, Group>();

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
    for (const g of this.open.values()) {
      const files = g.files;
      g.files = [];
      for (const f of files) f.fail(new Error('the store is closing'));
    }
    this.open.clear();
    return this.thread.close();
  }
}
