import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Value } from 'typebox/value';
import {
  FastransCodes,
  FastransLocalActions,
  Refusal,
  type FastransLocalAction,
  type FastransLocalAnswer,
  type FastransLocalEntry,
  type FastransLocalListing,
  type FastransLocalRequest,
} from '@hpc/contracts';
import type { ClientConfig } from './config';
import { ClientError, Owner, type Session } from './session';
import type { Runner } from './transfer/runner';
import { CLIENT_VERSION, PROTOCOL_VERSION } from './version';
import { FastransText } from './messages';

/** A request as it arrives: the action's name, the page's id for the answer, the action's fields. */
export interface Request {
  id: number;
  action: string;
  [k: string]: unknown;
}
export interface Answer {
  id: number;
  code: string;
  msg: string;
  /** The refusal's Chinese, when the client wrote it (its own `FastransText`), for a page in Chinese. */
  zh?: string;
  data: unknown;
}

/** One handler per action of the contracts' table, each typed by its request and answer. */
type Handlers = {
  [A in FastransLocalAction]: (m: FastransLocalRequest<A>, origin: string) => Promise<FastransLocalAnswer<A>>;
};

/**
 * Checks a request against its action's schema (contracts' `FastransLocalActions`). A refusal is `2001` naming the
 * first field at fault: "<field> is required" for a missing, empty or mistyped field, as the hand checks said it.
 */
function validated<A extends FastransLocalAction>(action: A, m: Request): FastransLocalRequest<A> {
  const schema = FastransLocalActions[action];
  if (Value.Check(schema, m)) return m;
  const [first] = Value.Errors(schema, m);
  const field =
    (first?.params as { requiredProperties?: string[] } | undefined)?.requiredProperties?.[0] ??
    first?.instancePath.split('/')[1] ??
    'request';
  const missing = ['required', 'type', 'minLength', 'minItems', 'anyOf'].includes(first?.keyword ?? '');
  const text = missing ? FastransText.fieldRequired(field) : FastransText.fieldInvalid(field);
  throw new ClientError(FastransCodes.badRequest, text);
}

/** A field of one or more paths as a list. */
const listOf = (v: string | string[]) => (Array.isArray(v) ? v : [v]);

/**
 * Where a page may have files downloaded: a folder, not the home folder itself nor any hidden folder (no segment
 * starting with '.'), so that a download cannot create start-up files such as ~/.bashrc or ~/.config/autostart/*.
 */
export function downloadTarget(local: string, home = os.homedir()): void {
  const segs = path.resolve(local).split(path.sep).filter(Boolean);
  if (path.resolve(local) === path.resolve(home) || path.resolve(local) === path.parse(local).root)
    throw new ClientError(FastransCodes.refused, FastransText.homeItself);
  if (segs.some((s) => s.startsWith('.')))
    throw new ClientError(FastransCodes.refused, FastransText.hiddenFolder);
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
    if (!session.remote) throw new ClientError(FastransCodes.notLoggedIn, FastransText.logInFirst);
    return session.remote;
  };

  const actions: Handlers = {
    async check(m) {
      const answer = { sign: m.sign ?? null, version: CLIENT_VERSION, protocolVersion: PROTOCOL_VERSION };
      // The proof that this is the user's own client (the key of the package the user downloaded): the page has
      // the portal verify it before it sends anything else. Without a key, no proof: the page does not use it.
      if (!config.clientKey || !m.sign) return answer;
      const proof = crypto
        .createHmac('sha256', Buffer.from(config.clientKey, 'base64url'))
        .update(m.sign)
        .digest('base64url');
      return { ...answer, proof };
    },
    async login(m, origin) {
      const asked = m.portal !== undefined ? new URL(m.portal).origin : '';
      const portal = config.allowedOrigins.includes(asked) ? asked : config.portal || origin;
      const uk = m.token;
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
      if (!session.info) throw new ClientError(FastransCodes.notLoggedIn, FastransText.logInFirst);
      return { servers: session.info.servers };
    },
    async list(m) {
      const dir = path.resolve(m.path || os.homedir());
      const offset = Math.floor(m.offset ?? 0);
      const limit = Math.min(5000, Math.floor(m.limit ?? 1000) || 1000);
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
      const target = m.path;
      const picks = listOf(m.local);
      const tasks = [];
      for (const p of picks) {
        const st = await fs.lstat(p).catch(() => null);
        if (!st) throw new ClientError(FastransCodes.notFound, FastransText.noSuchPath(p));
        const want = m.type ?? (st.isDirectory() ? 1 : 0);
        const text = want === 1 ? FastransText.notAFolder(p) : FastransText.notAFile(p);
        if ((want === 1) !== st.isDirectory()) throw new ClientError(FastransCodes.badRequest, text);
        tasks.push(await runner.addUpload(p, target, m.cover === true || m.overwrite === true));
      }
      return { tasks };
    },
    async download(m) {
      remote();
      const src = listOf(m.src);
      // The real folder: `~/Downloads/x` may be a link to `~/.ssh` (issue 24 §3.3). The rules apply to where the
      // files would land, and the task writes there, not through the link.
      const local = await realFolder(path.resolve(m.path || path.join(os.homedir(), 'Downloads')));
      downloadTarget(local);
      // Never over an existing local file: a page must not be able to replace the user's files (or their shell
      // start-up files) with something from the cluster.
      return { task: await runner.addDownload(src, local, false) };
    },
    async remove(m) {
      const paths = m.paths ?? m.path;
      if (paths === undefined)
        throw new ClientError(FastransCodes.badRequest, FastransText.fieldRequired('paths'));
      return remote().call('POST', '/remove.action?recursive=true', { paths: listOf(paths) });
    },
    async rename(m) {
      const { oldName, path: dir } = m;
      const full = dir.endsWith('/' + oldName) ? dir : `${dir.replace(/\/$/, '')}/${oldName}`;
      return remote().call('POST', '/rename.action', { path: full, newName: m.newName });
    },
    async create_folder(m) {
      const dir = m.path;
      const full = m.name ? `${dir.replace(/\/$/, '')}/${m.name}` : dir;
      return remote().call('POST', '/mkdir.action', { path: full });
    },
    async copy(m) {
      return remote().call('POST', '/copy.action', {
        paths: listOf(m.from),
        targetPath: m.to,
        cover: false,
      });
    },
    async move(m) {
      return remote().call('POST', '/move.action', {
        paths: listOf(m.from),
        targetPath: m.to,
        cover: false,
      });
    },
    async get_attributes(m) {
      const p = m.path;
      if (m.local === true) {
        const st = await fs.lstat(p).catch(() => null);
        if (!st) throw new ClientError(FastransCodes.notFound, FastransText.noSuchPath(p));
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
      const id = m.task_id;
      if (m.control) await runner.control(id, m.control);
      const info = runner.info(id);
      if (!info) throw new ClientError(FastransCodes.notFound, FastransText.noSuchTask);
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
    if (!Object.hasOwn(actions, m.action)) {
      const { en, zh } = FastransText.unknownAction(String(m.action));
      return { id, code: FastransCodes.badRequest, msg: en, zh, data: null };
    }
    const action = m.action as FastransLocalAction;
    try {
      const run = actions[action] as (m: unknown, origin: string) => Promise<unknown>;
      return { id, code: FastransCodes.ok, msg: '', data: await run(validated(action, m), origin) };
    } catch (e) {
      if (e instanceof Refusal)
        return { id, code: e.code, msg: e.message, ...(e.zh ? { zh: e.zh } : {}), data: e.data };
      return { id, code: FastransCodes.transferFailed, msg: (e as Error).message, data: null };
    }
  };
}
