import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { constants, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, isAppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import type { Resolved, UserScope } from '../../fs/path-resolver';
import { errno } from '../../fs/errno';
import { conflictError, fsError, renameNoReplace, replaceFile } from '../../fs/file-ops';
import { PARTIAL_SUFFIX, tempName, validateName, validateRelativePath } from '../../fs/names';
import { readTar } from '../../fs/tar-extract';
import { anchor, checkOpened, DIR_FLAGS } from '../../fs/anchored';
import { removeTree } from '../../fs/safe-remove';
import { rootsOf } from '../../http/owner-rights';
import type { LinuxRepository } from './linux.repository';

export type Direction = 'up' | 'down' | 'both';
const hash = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Generated Linux commands (issue 4 §7): a random token scoped to one user, these paths and one direction, valid
 * until the end of the current day (server local time) or the account's expiry if earlier.
 */
export function linuxService(deps: EfileDeps, repo: LinuxRepository) {
  const { resolver } = deps;

  function expiry(user: EfileUser): number {
    const end = new Date(deps.now());
    end.setHours(23, 59, 59, 999);
    return Math.min(end.getTime(), user.expAcct ?? Infinity);
  }

  async function issue(user: EfileUser, direction: Direction, paths: string[]) {
    const token = crypto.randomBytes(24).toString('base64url');
    const expiresAt = expiry(user);
    if (expiresAt <= deps.now()) throw new AppError('1007', 'The account has expired');
    await repo.insert({
      id: hash(token),
      owner_sub: user.sub,
      cun: user.cun,
      direction,
      paths: JSON.stringify(paths),
      roots: JSON.stringify(user.roots),
      expires_at: expiresAt,
      created_at: deps.now(),
    });
    return { token, expiresAt };
  }

  /**
   * Checks a scoped token for a direction and the user's current rights, and returns what it grants: its folders
   * (or files), each resolved now inside the user's current roots, and a scope whose roots are their REAL paths. Everything the command reads or writes is
   * confined to that scope by real path: a link inside the token's folder that points elsewhere in the owner's home
   * (`projects/p -> ~/private`) is neither zipped by a download nor written through by a tar entry.
   */
  async function verify(token: string, direction: 'up' | 'down') {
    const row = await repo.get(hash(token));
    if (!row || row.expires_at <= deps.now())
      throw new AppError('1406', 'The command has expired: generate a new one');
    if (row.direction !== direction && row.direction !== 'both') throw new AppError('1009');
    // The user's rights now, not those of the day the command was made: a disabled portal user or account, an
    // account past its end or a changed compute user stops the command; the folders must still be in their roots.
    const rights = await deps.ownerRights(row.owner_sub);
    if (!rights || rights.cun !== row.cun)
      throw new AppError('1406', 'The command is no longer valid: generate a new one');
    if (rights.st === 'Disable') throw new AppError('1007');
    if (rights.exp_acct !== null && rights.exp_acct <= deps.now())
      throw new AppError('1007', 'The account has expired');
    const owner = rootsOf(rights, deps.config.EFILE_HOME_PATTERN);
    const items: Resolved[] = [];
    for (const p of JSON.parse(row.paths) as string[]) items.push(await resolver.resolve(owner, p));
    const real = items.map((i) => resolver.toCluster(i.host));
    return { items, real, scope: { roots: real } satisfies UserScope };
  }

  /** A file written under a temporary sibling name, waiting to be renamed into place. */
  interface Staged {
    tmp: string;
    host: string;
    replace: boolean;
    bytes: number;
  }

  /**
   * Streams a body to a temp sibling of `targetPath` and fsyncs it; the caller renames it into place (`commit`), so
   * nothing half-written is ever under the final name. A conflict is refused before any byte is written.
   */
  async function writeTemp(
    scope: UserScope,
    targetPath: string,
    body: Readable,
    overwrite: boolean,
  ): Promise<Staged> {
    const t = await resolver.resolve(scope, targetPath, { follow: false, mustExist: false });
    validateName(t.name);
    if (t.stat && (!overwrite || t.stat.isDirectory())) throw conflictError(t.stat.isDirectory());
    const tmp = path.join(t.parentHost, tempName(t.name, PARTIAL_SUFFIX));
    const ws = createWriteStream(tmp, {
      flags: (constants.O_CREAT |
        constants.O_EXCL |
        constants.O_WRONLY |
        constants.O_NOFOLLOW) as unknown as string,
      mode: 0o644,
      highWaterMark: 1024 * 1024,
    });
    try {
      await pipeline(body, ws);
      // fsync through a second descriptor (the stream closed its own): it flushes the same file.
      const again = await fs.open(tmp, constants.O_RDONLY | constants.O_NOFOLLOW);
      await again.sync();
      await again.close();
      return { tmp, host: t.host, replace: overwrite && !!t.stat, bytes: ws.bytesWritten };
    } catch (e) {
      await fs.unlink(tmp).catch(() => undefined);
      if (isAppError(e)) throw e;
      fsError(e);
    }
  }

  async function commit(s: Staged): Promise<void> {
    try {
      if (s.replace) await replaceFile(s.tmp, s.host);
      else await renameNoReplace(s.tmp, s.host, false);
    } catch (e) {
      await fs.unlink(s.tmp).catch(() => undefined);
      throw e;
    }
  }

  /** Creates the missing folders of `base/segs…` (each checked inside the scope by real path). */
  async function ensureDirs(scope: UserScope, base: string, segs: string[]) {
    for (let i = 1; i <= segs.length; i++) {
      const d = await resolver.resolve(scope, `${base}/${segs.slice(0, i).join('/')}`, { mustExist: false });
      if (d.stat && !d.stat.isDirectory()) throw new AppError('1022');
      if (!d.stat)
        await fs.mkdir(d.host).catch((e: unknown) => (errno(e) === 'EEXIST' ? undefined : fsError(e)));
    }
  }

  return {
    verify,
    async uploadCommands(user: EfileUser, p: string | undefined, base: string) {
      if (!p || !p.trim()) throw new AppError('1003', 'Please enter the upload file or folder path');
      const dir = await resolver.resolve(user, p);
      if (!dir.stat?.isDirectory()) throw new AppError('1022');
      const { token, expiresAt } = await issue(user, 'up', [dir.clusterPath]);
      const url = `${base}/linux/put/${token}/`;
      return {
        token,
        expiresAt,
        url,
        // --fail-with-body (curl 7.76+): a refusal still fails the command, and prints the answer's message
        // ("A file with the same name exists") instead of a bare "curl: (22) … 409" (issue 13 §1.8).
        commands: [
          { kind: 'file', command: `curl --fail-with-body -S -T FILE ${q(url)}` },
          {
            kind: 'folder',
            command: `cd "$(dirname DIR)" && tar -cf - "$(basename DIR)" | curl --fail-with-body -S -T - ${q(`${base}/linux/tar/${token}`)}`,
          },
        ],
      };
    },
    async downloadCommands(user: EfileUser, paths: string[], base: string) {
      if (paths.length === 0) throw new AppError('1003', 'Choose files to download');
      const items = [];
      for (const p of paths) items.push(await resolver.resolve(user, p));
      const { token, expiresAt } = await issue(
        user,
        'down',
        items.map((i) => i.clusterPath),
      );
      const url = `${base}/linux/get/${token}`;
      const single = items.length === 1 && items[0]!.stat?.isFile();
      const out = single ? items[0]!.name : `${items.length === 1 ? items[0]!.name : 'download'}.zip`;
      return {
        token,
        expiresAt,
        url,
        commands: [{ kind: single ? 'file' : 'zip', command: `curl -fS -o ${q(out)} ${q(url)}` }],
      };
    },
    async userToken(user: EfileUser, p: string) {
      const dir = await resolver.resolve(user, p);
      const { token, expiresAt } = await issue(user, 'both', [dir.clusterPath]);
      return { token, clusterUserName: user.cun, expiresAt };
    },

    async putFile(token: string, name: string, body: Readable, overwrite: boolean) {
      const { real, scope } = await verify(token, 'up');
      const staged = await writeTemp(scope, `${real[0]}/${validateName(name)}`, body, overwrite);
      await commit(staged);
      return { files: 1, dirs: 0, skipped: [], bytes: staged.bytes };
    },

    /**
     * Extracts a tar stream safely: no absolute paths, no `..`, no links or devices. The whole archive is first read
     * into a hidden staging folder of this upload (`.tar.<id>.efile-part`, reached through its open descriptor, so
     * swapping it for a link cannot redirect the writes); only once the archive has been read whole and ends as a tar
     * must are its folders made and its files renamed into place. A body that is cut off or is not tar ("1010")
     * leaves nothing but the staging folder, which is removed before the answer.
     */
    async putTar(token: string, body: Readable, overwrite: boolean) {
      const { real, scope } = await verify(token, 'up');
      const base = real[0]!;
      const baseDir = await resolver.resolve(scope, base);
      if (!baseDir.stat?.isDirectory()) throw new AppError('1022');
      const r = { files: 0, dirs: 0, skipped: [] as string[], bytes: 0 };
      type Planned = { segs: string[]; entry: string } & (
        { dir: true } | { dir: false; tmp: string; bytes: number }
      );
      const plan: Planned[] = [];
      const stagingHost = path.join(baseDir.host, tempName('tar', PARTIAL_SUFFIX));
      await fs.mkdir(stagingHost, { mode: 0o700 }).catch(fsError);
      try {
        const dir = await fs.open(stagingHost, DIR_FLAGS);
        try {
          await checkOpened(dir.fd, stagingHost);
          const at = anchor(dir.fd);
          await readTar(body, async (e, data) => {
            const raw = e.path.replace(/^(\.\/)+/, '');
            if (raw === '' || raw === '.') return;
            let segs: string[];
            try {
              if (raw.startsWith('/')) throw new AppError('1029');
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
              mode: 0o644,
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
              await ensureDirs(scope, base, p.segs);
              r.dirs++;
              continue;
            }
            await ensureDirs(scope, base, p.segs.slice(0, -1));
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
            if (!isAppError(err) || err.code === '1501') throw err;
            r.skipped.push(p.entry);
          }
        }
      } finally {
        await removeTree(stagingHost, { force: true }).catch(() => undefined);
      }
      return r;
    },

    async getPaths(token: string) {
      const { items, scope } = await verify(token, 'down');
      return { items, scope };
    },
  };
}
export type LinuxService = ReturnType<typeof linuxService>;
