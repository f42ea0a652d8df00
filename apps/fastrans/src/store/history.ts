import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { upgrade, type TaskModel } from '../engine/task';

/**
 * The user's config folder of the client: `%APPDATA%\hpc-fastrans` on Windows, `$XDG_CONFIG_HOME/hpc-fastrans` or
 * `~/.config/hpc-fastrans` elsewhere (macOS included: a command-line tool's settings, not a document).
 */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'hpc-fastrans');
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'hpc-fastrans');
  return path.join(env.HOME || os.homedir(), '.config', 'hpc-fastrans');
}

/** Writes a file whole or not at all: a temp sibling, then rename (a crash mid-write leaves the old version). */
export async function writeAtomic(file: string, data: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.writeFile(tmp, data, { mode: 0o600 });
  await fs.rename(tmp, file);
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** One entry of a task's file list. */
export interface ListEntry {
  rel: string;
  size: number;
}

/** Where a list file left off: its whole lines (a crash may cut the last one), their files and bytes. */
export interface ListEnd {
  size: number;
  files: number;
  total: number;
}

/**
 * Appends a task's file list to its list file as it is found (a local walk, a remote manifest): one JSON line
 * `[rel, size]` per file, written in blocks, so a 1,000,000-file list never sits in memory. With `flushEvery`, a
 * block also goes out after that many files, and `onFlush` hears of each block: the transfer reads the list while it
 * is still being written (`written` bytes are whole lines on disk).
 */
export class ListWriter {
  private buf: string[] = [];
  private bytes = 0;
  private unflushed = 0;
  files = 0;
  total = 0;
  written = 0;
  onFlush: (() => void) | null = null;
  private constructor(
    private readonly fh: fs.FileHandle,
    private readonly flushEvery: number,
  ) {}
  /** A new list file, or (`from`) the whole lines of one written before, to be continued. */
  static async open(file: string, flushEvery = Infinity, from?: ListEnd) {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Nothing whole to continue (a stop before the first line was written): the list begins again.
    if (!from?.size) return new ListWriter(await fs.open(file, 'w', 0o600), flushEvery);
    const fh = await fs.open(file, 'r+');
    try {
      await fh.truncate(from.size);
    } catch (e) {
      await fh.close();
      throw e;
    }
    const w = new ListWriter(fh, flushEvery);
    Object.assign(w, { files: from.files, total: from.total, written: from.size });
    return w;
  }
  async add(e: ListEntry) {
    const line = JSON.stringify([e.rel, e.size]) + '\n';
    this.buf.push(line);
    this.bytes += line.length;
    this.files++;
    this.unflushed++;
    this.total += e.size;
    if (this.bytes >= 256 * 1024 || this.unflushed >= this.flushEvery) await this.flush();
  }
  private async flush() {
    const data = this.buf.join('');
    this.buf = [];
    this.bytes = 0;
    this.unflushed = 0;
    if (data) {
      const bytes = Buffer.from(data);
      let at = 0;
      while (at < bytes.length)
        at += (await this.fh.write(bytes, at, bytes.length - at, this.written + at)).bytesWritten;
      this.written += bytes.length;
    }
    this.onFlush?.();
  }
  async close() {
    try {
      await this.flush();
    } finally {
      await this.fh.close();
    }
  }
}

/**
 * The task history: one JSON file per task under `<config>/tasks/`, so that saving a busy task rewrites only its own
 * file, and beside it the task's file list (`<id>.list`, written once). The JSON holds the engine's window, not the
 * task's files, so saving stays small whatever the task's size. It survives a restart of the client; unfinished
 * tasks are resumed from it. Tokens are never stored here.
 */
export class HistoryStore {
  readonly dir: string;
  constructor(configFolder: string) {
    this.dir = path.join(configFolder, 'tasks');
  }

  private file(id: string) {
    if (!SAFE_ID.test(id)) throw new Error('bad task id');
    return path.join(this.dir, `${id}.json`);
  }

  listFile(id: string) {
    return this.file(id).replace(/\.json$/, '.list');
  }

  /** The list file of a new task, to be filled by the caller; `from`: continues one (see `listEnd`). */
  listWriter(id: string, flushEvery?: number, from?: ListEnd) {
    return ListWriter.open(this.listFile(id), flushEvery, from);
  }

  /**
   * The end of a list whose writing was cut (a client stopped during the walk), with the names it holds: the list is
   * continued from there by a new walk that skips them.
   */
  async listEnd(id: string): Promise<ListEnd & { rels: Set<string> }> {
    const rels = new Set<string>();
    let files = 0;
    let total = 0;
    let pos = 0;
    for (;;) {
      // A last line without its newline (a write cut by the crash), or damaged, ends the list's whole lines.
      const part = await this.readList(id, pos, 100_000).catch(() => null);
      if (!part) break;
      for (const e of part.entries) {
        rels.add(e.rel);
        files++;
        total += e.size;
      }
      pos = part.pos;
      if (part.entries.length === 0 || part.ended) break;
    }
    return { size: pos, files, total, rels };
  }

  /**
   * Up to `max` entries of the list from byte `pos`: the entries, the position after them, and whether the list
   * ends there. Reads in blocks; nothing but those entries is kept. `end`: read no further than that byte (a list
   * still being written: what its writer has written whole).
   */
  async readList(
    id: string,
    pos: number,
    max: number,
    end?: number,
  ): Promise<{ entries: ListEntry[]; pos: number; ended: boolean }> {
    const fh = await fs.open(this.listFile(id), 'r');
    try {
      const size = Math.min((await fh.stat()).size, end ?? Infinity);
      const entries: ListEntry[] = [];
      const block = Buffer.allocUnsafe(256 * 1024);
      let carry = Buffer.alloc(0);
      let at = pos;
      let next = pos;
      while (entries.length < max && at < size) {
        const { bytesRead } = await fh.read(block, 0, Math.min(block.length, size - at), at);
        if (bytesRead === 0) break;
        at += bytesRead;
        const data = carry.length
          ? Buffer.concat([carry, block.subarray(0, bytesRead)])
          : block.subarray(0, bytesRead);
        let start = 0;
        for (let nl = data.indexOf(10); nl !== -1 && entries.length < max; nl = data.indexOf(10, start)) {
          const [rel, sz] = JSON.parse(data.toString('utf8', start, nl)) as [string, number];
          entries.push({ rel, size: sz });
          next += nl + 1 - start;
          start = nl + 1;
        }
        carry = Buffer.from(data.subarray(start));
      }
      return { entries, pos: next, ended: next >= size };
    } finally {
      await fh.close();
    }
  }

  async save(t: TaskModel): Promise<void> {
    await writeAtomic(this.file(t.id), JSON.stringify(t));
  }

  async load(): Promise<TaskModel[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const out: TaskModel[] = [];
    for (const n of names) {
      if (!n.endsWith('.json')) continue;
      try {
        out.push(upgrade(JSON.parse(await fs.readFile(path.join(this.dir, n), 'utf8')) as TaskModel));
      } catch {
        /* a damaged entry is skipped, not fatal */
      }
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async remove(id: string): Promise<void> {
    await fs.rm(this.file(id), { force: true });
    await fs.rm(this.listFile(id), { force: true });
  }
}
