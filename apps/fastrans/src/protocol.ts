import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastransLocalEntry, FastransLocalListing } from '@hpc/contracts';
import type { ClientConfig } from './config';
import { ClientError, Owner, type Session } from './session';
import { RemoteError } from './transfer/remote';
import type { Runner } from './transfer/runner';
import { CLIENT_VERSION, PROTOCOL_VERSION } from './version';

export interface Request {
  id: number;
  action: string;
  [k: string]: unknown;
}
export interface Answer {
  id: number;
  code: string;
  msg: string;
  data: unknown;
}

const str = (v: unknown, name: string): string => {
  if (typeof v !== 'string' || v === '') throw new ClientError('2001', `${name} is required`);
  return v;
};
const strs = (v: unknown, name: string): string[] => {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  if (list.length === 0 || list.some((x) => typeof x !== 'string' || x === ''))
    throw new ClientError('2001', `${name} is required`);
  return list as string[];
};

/**
 * Where a page may have files downloaded: a folder, not the home folder itself nor any hidden folder (no segment
 * starting with '.'), so that a download cannot create start-up files such as ~/.bashrc or ~/.config/autostart/*.
 */
export function downloadTarget(local: string, home = os.homedir()): void {
  const segs = path.resolve(local).split(path.sep).filter(Boolean);
  if (path.resolve(local) === path.resolve(home) || path.resolve(local) === path.parse(local).root)
    throw new ClientError(
      '2016',
      'Choose a folder inside your home folder to download into, not the home itself',
    );
  if (segs.some((s) => s.startsWith('.')))
    throw new ClientError('2016', 'Downloads do not go into hidden folders');
}

/**
 * A folder's real path: its nearest existing ancestor resolved through every link, with the part that does not exist
 * yet (the download creates it) joined on.
 */
export async function realFolder(p: string): Promise<string> {
  const rest: string[] = [];
  let at = path.resolve(p);
  for (;;) {
    try {
      return path.join(await fs.realpath(at), ...rest.reverse());
    } catch (e) {
      const parent = path.dirname(at);
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) throw e;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * The local protocol (docs/FASTRANS.md): one handler per action of spec §7. Nothing here runs a command; local files
 * are only listed (`list`, `get_attributes`) and read or written by the tasks the user started.
 */
export function protocol(config: ClientConfig, session: Session, runner: Runner) {
  const owner = new Owner(config.configDir);
  // Logins one at a time: two pages logging in as two users at once must not both pass the owner check.
  let logins: Promise<unknown> = Promise.resolve();
  const remote = () => {
    if (!session.remote) throw new ClientError('30003', 'Log in first');
    return session.remote;
  };

  const actions: Record<string, (m: Request, origin: string) => Promise<unknown>> = {
    async check(m) {
      return { sign: m.sign ?? null, version: CLIENT_VERSION, protocolVersion: PROTOCOL_VERSION };
    },
    async login(m, origin) {
      const asked = typeof m.portal === 'string' ? new URL(m.portal).origin : '';
      const portal = config.allowedOrigins.includes(asked) ? asked : config.portal || origin;
      const uk = str(m.token, 'token');
      const who = Owner.of(portal, uk);
      const turn = logins.then(async () => {
        await owner.check(who);
        const info = await session.login(portal, uk);
        await owner.pair(who);
        runner.setRemote(session.remote);
        return info;
      });
      logins = turn.catch(() => undefined);
      return turn;
    },
    async servers() {
      if (!session.info) throw new ClientError('30003', 'Log in first');
      return { servers: session.info.servers };
    },
    async list(m) {
      const dir = path.resolve(typeof m.path === 'string' && m.path ? m.path : os.homedir());
      const offset = Number(m.offset ?? 0) || 0;
      const limit = Math.min(5000, Number(m.limit ?? 1000) || 1000);
      const names = (await fs.readdir(dir)).sort((a, b) => a.localeCompare(b));
      const list: FastransLocalEntry[] = [];
      for (const name of names.slice(offset, offset + limit)) {
        const st = await fs.lstat(path.join(dir, name)).catch(() => null);
        if (!st || st.isSymbolicLink()) continue;
        list.push({
          name,
          path: path.join(dir, name),
          dir: st.isDirectory(),
          size: st.size,
          mtime: st.mtimeMs,
        });
      }
      return {
        path: dir,
        parent: path.dirname(dir),
        total: names.length,
        list,
      } satisfies FastransLocalListing;
    },
    async upload(m) {
      remote();
      const target = str(m.path, 'path');
      const picks = strs(m.local, 'local');
      const tasks = [];
      for (const p of picks) {
        const st = await fs.lstat(p).catch(() => null);
        if (!st) throw new ClientError('2004', `${p} does not exist`);
        const want = Number(m.type ?? (st.isDirectory() ? 1 : 0));
        if ((want === 1) !== st.isDirectory())
          throw new ClientError('2001', `${p} is not a ${want === 1 ? 'folder' : 'file'}`);
        tasks.push(await runner.addUpload(p, target, m.cover === true || m.overwrite === true));
      }
      return { tasks };
    },
    async download(m) {
      remote();
      const src = strs(m.src, 'src');
      // The real folder: `~/Downloads/x` may be a link to `~/.ssh` (issue 24 §3.3). The rules apply to where the
      // files would land, and the task writes there, not through the link.
      const local = await realFolder(
        path.resolve(typeof m.path === 'string' && m.path ? m.path : path.join(os.homedir(), 'Downloads')),
      );
      downloadTarget(local);
      // Never over an existing local file: a page must not be able to replace the user's files (or their shell
      // start-up files) with something from the cluster.
      return { task: await runner.addDownload(src, local, false) };
    },
    async remove(m) {
      return remote().call('POST', '/remove.action?recursive=true', {
        paths: strs(m.paths ?? m.path, 'paths'),
      });
    },
    async rename(m) {
      const oldName = str(m.oldName, 'oldName');
      const dir = str(m.path, 'path');
      const full = dir.endsWith('/' + oldName) ? dir : `${dir.replace(/\/$/, '')}/${oldName}`;
      return remote().call('POST', '/rename.action', { path: full, newName: str(m.newName, 'newName') });
    },
    async create_folder(m) {
      const dir = str(m.path, 'path');
      const full = typeof m.name === 'string' && m.name ? `${dir.replace(/\/$/, '')}/${m.name}` : dir;
      return remote().call('POST', '/mkdir.action', { path: full });
    },
    async copy(m) {
      return remote().call('POST', '/copy.action', {
        paths: strs(m.from, 'from'),
        targetPath: str(m.to, 'to'),
        cover: false,
      });
    },
    async move(m) {
      return remote().call('POST', '/move.action', {
        paths: strs(m.from, 'from'),
        targetPath: str(m.to, 'to'),
        cover: false,
      });
    },
    async get_attributes(m) {
      const p = str(m.path, 'path');
      if (m.local === true) {
        const st = await fs.lstat(p).catch(() => null);
        if (!st) throw new ClientError('2004', `${p} does not exist`);
        return { path: p, dir: st.isDirectory(), size: st.size, mtime: st.mtimeMs };
      }
      return remote().call('POST', '/exist.action', { path: p });
    },
    async get_trans_count() {
      return runner.count();
    },
    async open_trans_list() {
      return { list: runner.list() };
    },
    async start_update() {
      // Never downloads or runs anything itself: the page offers the package's address to the user.
      const portal = session.info?.portal || config.portal;
      return { url: portal ? `${portal}/share/fasttrans-client.tar.gz` : null, version: CLIENT_VERSION };
    },
    async get_task_info(m) {
      const id = str(m.task_id, 'task_id');
      const op = m.control;
      if (op === 'pause' || op === 'resume' || op === 'cancel' || op === 'retry')
        await runner.control(id, op);
      const info = runner.info(id);
      if (!info) throw new ClientError('2004', 'No such task');
      return info;
    },
    async logout() {
      await session.logout();
      runner.setRemote(null);
      return null;
    },
  };

  return async function handle(m: Request, origin: string): Promise<Answer> {
    const id = typeof m.id === 'number' ? m.id : 0;
    const fn = Object.hasOwn(actions, m.action) ? actions[m.action] : undefined;
    if (!fn) return { id, code: '2001', msg: `Unknown action ${String(m.action)}`, data: null };
    try {
      return { id, code: '0', msg: '', data: await fn(m, origin) };
    } catch (e) {
      if (e instanceof ClientError || e instanceof RemoteError)
        return { id, code: e.code, msg: e.message, data: e.data };
      return { id, code: '2002', msg: (e as Error).message, data: null };
    }
  };
}
