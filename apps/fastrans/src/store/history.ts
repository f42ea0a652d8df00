import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TaskModel } from '../engine/task';

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

/**
 * The task history: one JSON file per task under `<config>/tasks/`, so that saving a busy task rewrites only its own
 * file. It survives a restart of the client; unfinished tasks are resumed from it. Tokens are never stored here.
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
        out.push(JSON.parse(await fs.readFile(path.join(this.dir, n), 'utf8')) as TaskModel);
      } catch {
        /* a damaged entry is skipped, not fatal */
      }
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async remove(id: string): Promise<void> {
    await fs.rm(this.file(id), { force: true });
  }
}
