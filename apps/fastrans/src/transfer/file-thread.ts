import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import { Worker } from 'node:worker_threads';
import type * as Threads from 'node:worker_threads';

/** One downloaded file to write: its final path, its bytes as a span of the batch's block, the digest they must have. */
export interface WriteJob {
  final: string;
  at: number;
  length: number;
  sha256: string;
}

/** What became of one file: written under its final name, or why not (`permanent`: sending it again will not help). */
export type WriteOutcome = null | { message: string; code: string; permanent: boolean };

/** One small file to upload: read whole into its span of the batch's archive. */
export interface ReadJob {
  path: string;
  at: number;
  length: number;
}

type Request =
  | { op: 'write'; block: Uint8Array; jobs: WriteJob[]; overwrite: boolean }
  | { op: 'read'; block: Uint8Array; jobs: ReadJob[] }
  | { op: 'publish'; from: string; to: string; overwrite: boolean };
type Message = Request & { id: number };
/** The thread's answer: per-file outcomes (write), digests and the filled archive back (read), or why it failed. */
interface Reply {
  id: number;
  out?: WriteOutcome[];
  digests?: string[];
  block?: Uint8Array;
  error?: { message: string; code: string };
}

/**
 * The thread's whole program. The client ships as one executable (Node's single executable application), with no
 * file to start a worker from, so the thread runs from this function's source text: it uses no name from outside
 * itself, only what it requires. (`__name` is the helper a bundler that keeps function names inserts; the thread
 * defines it as nothing.)
 *
 * Why a thread: a downloaded small file was five asynchronous calls (open, write, close, link, unlink), an uploaded
 * one three (open, read, close), each a hand-off to the thread pool and a wake-up back, and its SHA-256 ran on the
 * event loop; here they are plain system calls in a row, off the event loop (PERFORMANCE.md, "Small files: a group per call"; efile's store threads do the same).
 */
function threadMain() {
  /* eslint-disable @typescript-eslint/no-require-imports -- the thread runs from source text, where require is what there is */
  const { parentPort } = require('node:worker_threads') as typeof Threads;
  const fs = require('node:fs') as typeof Fs;
  const path = require('node:path') as typeof Path;
  const crypto = require('node:crypto') as typeof Crypto;
  /* eslint-enable @typescript-eslint/no-require-imports */
  // A file system without hard links (FAT and exFAT drives, some shares) answers link() with one of these: an
  // existence check, then a rename.
  const LINKLESS = ['EPERM', 'EXDEV', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'];
  const prefix = crypto.randomBytes(6).toString('hex');
  let count = 0;
  const codeOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? 'EIO';
  const exists = (to: string) => {
    const e = new Error(`${to} exists`);
    return Object.assign(e, { code: 'EEXIST' });
  };

  /** A regular file opened for reading, never through a link nor blocking on a FIFO; null for anything else. */
  function openRegularFile(file: string): number | null {
    let fd: number;
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch {
      return null;
    }
    if (fs.fstatSync(fd).isFile()) return fd;
    fs.closeSync(fd);
    return null;
  }

  /**
   * A file listed for an upload, opened to be read: still a regular file, never through a link nor blocking on a
   * FIFO; one that is gone keeps its ENOENT.
   */
  function openListed(file: string): number {
    const changed = () => Object.assign(new Error(`${file} is no longer a regular file`), { code: 'EINVAL' });
    let fd: number;
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (e) {
      throw codeOf(e) === 'ELOOP' ? changed() : e;
    }
    if (fs.fstatSync(fd).isFile()) return fd;
    fs.closeSync(fd);
    throw changed();
  }

  /**
   * An existing final name that already holds exactly these bytes (a file this task wrote just before the client
   * was stopped, its outcome not yet saved, fetched again after the restart): the file is there, nothing is
   * replaced, and the temp file goes. Compared block by block, so a different file is told at its first difference.
   */
  function alreadyThere(from: string, to: string): boolean {
    const theirs = openRegularFile(to);
    if (theirs === null) return false;
    const ours = fs.openSync(from, 'r');
    try {
      if (fs.fstatSync(theirs).size !== fs.fstatSync(ours).size) return false;
      const a = Buffer.allocUnsafe(1024 * 1024);
      const b = Buffer.allocUnsafe(1024 * 1024);
      for (;;) {
        const n = fs.readSync(ours, a, 0, a.length, null);
        const m = fs.readSync(theirs, b, 0, n, null);
        if (m !== n || !a.subarray(0, n).equals(b.subarray(0, n))) return false;
        if (n === 0) break;
      }
    } finally {
      fs.closeSync(ours);
      fs.closeSync(theirs);
    }
    fs.unlinkSync(from);
    return true;
  }

  /**
   * Gives a verified file its final name; an existing item is replaced only when the user asked for it. Without
   * replacing, a hard link to the final name, then the temp name removed: the link fails on an existing item, so no
   * check comes before it that a file made meanwhile could slip past. An existing file with the same bytes counts as
   * named (`alreadyThere`).
   */
  function publish(from: string, to: string, overwrite: boolean) {
    if (overwrite) return fs.renameSync(from, to);
    try {
      fs.linkSync(from, to);
    } catch (e) {
      if (codeOf(e) === 'EEXIST') {
        if (alreadyThere(from, to)) return;
        throw exists(to);
      }
      if (!LINKLESS.includes(codeOf(e))) throw e;
      if (fs.lstatSync(to, { throwIfNoEntry: false })) {
        if (alreadyThere(from, to)) return;
        throw exists(to);
      }
      return fs.renameSync(from, to);
    }
    fs.unlinkSync(from);
  }

  /** Each file checked, written under a hidden temp name beside its final one, then named; each its own outcome. */
  function write(m: Extract<Message, { op: 'write' }>): WriteOutcome[] {
    const made = new Set<string>();
    return m.jobs.map((j) => {
      const data = m.block.subarray(j.at, j.at + j.length);
      if (crypto.createHash('sha256').update(data).digest('hex') !== j.sha256)
        return { message: 'checksum differs', code: 'ECHECKSUM', permanent: false };
      const dir = path.dirname(j.final);
      const tmp = path.join(
        dir,
        `.${path.basename(j.final)}.${prefix}${(count++).toString(36)}.fastrans-tmp`,
      );
      let fd: number | null = null;
      try {
        if (!made.has(dir)) fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
        fd = fs.openSync(tmp, 'wx');
        for (let off = 0; off < data.length;) {
          const n = fs.writeSync(fd, data, off, data.length - off, off);
          if (n === 0) throw Object.assign(new Error('no progress writing'), { code: 'EIO' });
          off += n;
        }
        fs.closeSync(fd);
        fd = null;
        publish(tmp, j.final, m.overwrite);
        return null;
      } catch (e) {
        if (fd !== null) fs.closeSync(fd);
        fs.rmSync(tmp, { force: true });
        return { message: (e as Error).message, code: codeOf(e), permanent: true };
      }
    });
  }

  /**
   * Each file read whole into its span of the archive and hashed; the archive goes back (moved, not copied). A file
   * that cannot be read, is no longer a regular file or the size listed, fails the batch, as an unreadable file
   * always did.
   */
  function read(m: Extract<Message, { op: 'read' }>) {
    const digests = m.jobs.map((j) => {
      const data = m.block.subarray(j.at, j.at + j.length);
      // As listed: a regular file. A link or a FIFO put under its name since the walk is refused, never followed
      // nor waited on (the walk skips links; a FIFO with no writer would hold this thread for good).
      const fd = openListed(j.path);
      try {
        for (let off = 0; off < data.length;) {
          const n = fs.readSync(fd, data, off, data.length - off, off);
          if (n === 0) throw new Error('the local file shrank');
          off += n;
        }
      } finally {
        fs.closeSync(fd);
      }
      return crypto.createHash('sha256').update(data).digest('hex');
    });
    parentPort!.postMessage({ id: m.id, digests, block: m.block }, [m.block.buffer as ArrayBuffer]);
  }

  parentPort!.on('message', (m: Message) => {
    try {
      if (m.op === 'write') parentPort!.postMessage({ id: m.id, out: write(m) });
      else if (m.op === 'read') read(m);
      else {
        publish(m.from, m.to, m.overwrite);
        parentPort!.postMessage({ id: m.id, out: [] });
      }
    } catch (e) {
      parentPort!.postMessage({ id: m.id, error: { message: (e as Error).message, code: codeOf(e) } });
    }
  });
}

interface Pending {
  ok: (r: Reply) => void;
  fail: (e: Error) => void;
}

/** A block whose memory can move to the thread: its own ArrayBuffer, whole (else a copy of it). */
const owned = (b: Uint8Array): Uint8Array =>
  b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer
    ? b
    : b.slice();

/** A thread with nothing to do for this long stops (the client may live for days between transfers). */
const IDLE_MS = 30_000;

/**
 * One file thread: reads small files to upload and writes downloaded ones a batch at a time, and names downloaded
 * large files. Started when needed, stopped after IDLE_MS without work, unref'd while idle so it never holds the
 * client open. A thread that dies fails what it had (those files are sent or fetched again, like any failed batch);
 * the next call starts a new one.
 */
class FileThread {
  private thread: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private idle: NodeJS.Timeout | null = null;
  private next = 1;

  /** Calls sent and not yet answered. */
  get busy(): number {
    return this.pending.size;
  }

  /** Writes the files of a download batch; `block` is the batch's answer, whose memory moves to the thread. */
  async write(block: Uint8Array, jobs: WriteJob[], overwrite: boolean): Promise<WriteOutcome[]> {
    const b = owned(block);
    return (await this.send({ op: 'write', block: b, jobs, overwrite }, [b.buffer as ArrayBuffer])).out ?? [];
  }

  /**
   * Reads the files of an upload batch into their spans of `archive` (laid out by the caller) and hashes them;
   * answers their SHA-256s and the archive filled. `archive`'s memory moves to the thread and back: do not use it
   * meanwhile.
   */
  async read(archive: Buffer, jobs: ReadJob[]): Promise<{ archive: Buffer; digests: string[] }> {
    const b = owned(archive);
    const r = await this.send({ op: 'read', block: b, jobs }, [b.buffer as ArrayBuffer]);
    const back = r.block!;
    return { archive: Buffer.from(back.buffer, back.byteOffset, back.byteLength), digests: r.digests ?? [] };
  }

  /** Gives a verified file its final name (as a batch's files are named). */
  async publish(from: string, to: string, overwrite: boolean): Promise<void> {
    await this.send({ op: 'publish', from, to, overwrite }, []);
  }

  private send(m: Request, transfer: ArrayBuffer[]): Promise<Reply> {
    const t = this.start();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const id = this.next++;
    return new Promise<Reply>((ok, fail) => {
      this.pending.set(id, { ok, fail });
      if (this.pending.size === 1) t.ref();
      t.postMessage({ id, ...m }, transfer);
    });
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    const t = new Worker(`const __name = (f) => f;\n(${threadMain.toString()})();`, { eval: true });
    t.unref();
    t.on('message', (m: Reply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) {
        t.unref();
        this.idle = setTimeout(() => {
          if (this.thread !== t || this.pending.size > 0) return;
          this.thread = null;
          void t.terminate();
        }, IDLE_MS);
        this.idle.unref();
      }
      if (!m.error) p.ok(m);
      else p.fail(Object.assign(new Error(m.error.message), { code: m.error.code }));
    });
    const gone = (e: Error) => {
      if (this.thread !== t) return;
      this.thread = null;
      for (const p of this.pending.values()) p.fail(e);
      this.pending.clear();
    };
    t.on('error', gone);
    t.on('exit', (c) => gone(new Error(`the file thread stopped (${c})`)));
    this.thread = t;
    return t;
  }
}

/**
 * The client's file threads (a process-wide resource, like the thread pool they stand beside): a batch goes to the
 * one with the least under way. Four, not one: a thread reads one file after another, and files not in the page
 * cache are read faster several at once (10,000 cold files: 0.65 s four at a time, 1.05 s one after another), so
 * the batches in flight are read side by side: cold, through the long link, the upload took 2.43-2.60 s against
 * 2.57-2.79 s with one thread. They start only as batches need them.
 */
class FileThreads {
  private readonly threads = Array.from({ length: 4 }, () => new FileThread());

  private pick(): FileThread {
    return this.threads.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  write(block: Uint8Array, jobs: WriteJob[], overwrite: boolean): Promise<WriteOutcome[]> {
    return this.pick().write(block, jobs, overwrite);
  }

  read(archive: Buffer, jobs: ReadJob[]): Promise<{ archive: Buffer; digests: string[] }> {
    return this.pick().read(archive, jobs);
  }

  publish(from: string, to: string, overwrite: boolean): Promise<void> {
    return this.pick().publish(from, to, overwrite);
  }
}

export const fileThread = new FileThreads();
