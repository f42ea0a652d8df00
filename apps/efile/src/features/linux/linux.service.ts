import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { CommonCodes, FileCodes, LINUX_TOKEN_HEADER, type MessageLanguage } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import { validateName } from '../../fs/names';
import { refusalOf, rootsOf } from '@hpc/cluster-kit';
import type { FsScope, Info } from '../../userfs/types';
import type { LinuxRepository } from './linux.repository';
import type { PartialCore } from '../partial';
import { EfileText } from '../../messages';

export type Direction = 'up' | 'down' | 'both';

/**
 * How a command hands its token to curl: a config (`-K`, any curl) read from file descriptor 3, a here-document of
 * the shell's (POSIX sh, bash, zsh). A token on the command line (`-H …`, or in the URL as before) is in every
 * process listing while the transfer runs, and any local account could take it for the rest of the day (found
 * from outside, 2026-12-01); a here-document is the shell's own (a pipe, or a 0600 temp file), never an argument.
 */
function tokenConfig(token: string, lang: MessageLanguage): { option: string; doc: string } {
  // The user's language goes along, so that a refusal (same name, expired) is said in it, as on the page.
  const headers = [`header = "${LINUX_TOKEN_HEADER}: ${token}"`, `header = "accept-language: ${lang}"`];
  return { option: '-K /dev/fd/3', doc: `3<<'HPC_TOKEN'\n${headers.join('\n')}\nHPC_TOKEN` };
}
const hash = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Generated Linux commands (issue 4 §7): a random token scoped to one user, these paths and one direction, valid
 * until the end of the current day (server local time) or the account's expiry if earlier.
 */
export function linuxService(deps: EfileDeps, repo: LinuxRepository, partials: PartialCore) {
  const { resolver, userfs } = deps;

  function expiry(user: EfileUser): number {
    const end = new Date(deps.now());
    end.setHours(23, 59, 59, 999);
    return Math.min(end.getTime(), user.expAcct ?? Infinity);
  }

  async function issue(user: EfileUser, direction: Direction, paths: string[]) {
    // A command is asked for from the page, by its session (recorded with it, and revoked when that session is
    // ended for safety). A day token has no session: a command made with it outlived the stolen session that had
    // made the day token (found from outside, 2026-12-01), and the client never asks for one.
    if (user.dayToken) throw new AppError(CommonCodes.tokenWithoutUser, EfileText.commandNeedsPage);
    const token = crypto.randomBytes(24).toString('base64url');
    const expiresAt = expiry(user);
    if (expiresAt <= deps.now()) throw new AppError(CommonCodes.userFrozen, EfileText.accountExpired);
    const row = {
      id: hash(token),
      owner_sub: user.sub,
      cun: user.cun,
      direction,
      paths: JSON.stringify(paths),
      roots: JSON.stringify(user.roots),
      expires_at: expiresAt,
      created_at: deps.now(),
    };
    // Listed in the user's centre, where they can revoke it (issue 25 §1.4): the shared store, not this database.
    // Recorded first: past the user's daily allowance it refuses (429), and then nothing is in the table either.
    await deps.revocations.recordIssued(user.sub, {
      id: row.id,
      kind: 'linux',
      clusterId: deps.config.EFILE_CLUSTER_ID,
      issuedAt: row.created_at,
      expiresAt,
      detail: `${direction} ${paths.join(' ')}`,
      // The page session that asked: ending it for safety (a password change…) revokes this command too.
      ...(user.sid ? { sid: user.sid } : {}),
    });
    await repo.insert(row);
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
      throw new AppError(CommonCodes.tokenWithoutUser, EfileText.commandExpired);
    if (row.direction !== direction && row.direction !== 'both')
      throw new AppError(CommonCodes.noApiPrivilege);
    // Revoked by its user in the user centre, or its user disabled since it was made: refused on every instance.
    const iat = Math.floor(row.created_at / 1000);
    if (await deps.revocations.revoked({ sub: row.owner_sub, credential: row.id, iat }))
      throw new AppError(CommonCodes.tokenWithoutUser, EfileText.commandRevoked);
    // The user's rights now, not those of the day the command was made: a disabled portal user or account, an
    // account past its end or a changed compute user stops the command; the folders must still be in their roots.
    const rights = await deps.ownerRights(row.owner_sub);
    const refused = refusalOf(rights, row.cun, deps.now());
    if (refused === 'no-user') throw new AppError(CommonCodes.tokenWithoutUser, EfileText.commandInvalid);
    if (refused === 'disabled') throw new AppError(CommonCodes.userFrozen);
    if (refused === 'expired') throw new AppError(CommonCodes.userFrozen, EfileText.accountExpired);
    // Resolved, read and written as the token's user: in unix mode by their worker, where the kernel checks each call.
    const owner: FsScope = { cun: row.cun, roots: rootsOf(rights!, deps.config.EFILE_HOME_PATTERN).roots };
    const items: Info[] = [];
    for (const p of JSON.parse(row.paths) as string[]) items.push(await userfs.resolve(owner, p));
    const real = items.map((i) => resolver.toCluster(i.host));
    return { items, real, sub: row.owner_sub, scope: { cun: row.cun, roots: real } satisfies FsScope };
  }

  return {
    verify,
    async uploadCommands(user: EfileUser, p: string | undefined, base: string, lang: MessageLanguage) {
      if (!p || !p.trim()) throw new AppError(CommonCodes.incompleteParams, EfileText.uploadPathRequired);
      // A folder that is not there is "1024" (spec §8), as a listing says, not a missing file's "1020".
      const dir = await userfs.resolve(user, p).catch((e: unknown) => {
        throw isAppError(e) && e.code === FileCodes.notFound ? new AppError(FileCodes.dirNotFound) : e;
      });
      if (!dir.stat?.isDir) throw new AppError(FileCodes.notAFolder);
      const { token, expiresAt } = await issue(user, 'up', [dir.clusterPath]);
      const url = `${base}/linux/put/`;
      const config = tokenConfig(token, lang);
      return {
        token,
        expiresAt,
        url,
        // --fail-with-body (curl 7.76+): a refusal still fails the command, and prints the answer's message
        // ("A file with the same name exists") instead of a bare "curl: (22) … 409" (issue 13 §1.8).
        commands: [
          {
            kind: 'file',
            command: `curl --fail-with-body -S ${config.option} -T FILE ${q(url)} ${config.doc}`,
          },
          {
            kind: 'folder',
            command: `cd "$(dirname DIR)" && tar -cf - "$(basename DIR)" | curl --fail-with-body -S ${config.option} -T - ${q(`${base}/linux/tar`)} ${config.doc}`,
          },
        ],
      };
    },
    async downloadCommands(user: EfileUser, paths: string[], base: string, lang: MessageLanguage) {
      if (paths.length === 0)
        throw new AppError(CommonCodes.incompleteParams, EfileText.chooseFilesToDownload);
      const items = [];
      for (const p of paths) items.push(await userfs.resolve(user, p));
      const { token, expiresAt } = await issue(
        user,
        'down',
        items.map((i) => i.clusterPath),
      );
      const url = `${base}/linux/get`;
      const single = items.length === 1 && !!items[0]!.stat?.isFile;
      const out = single ? items[0]!.name : `${items.length === 1 ? items[0]!.name : 'download'}.zip`;
      const config = tokenConfig(token, lang);
      return {
        token,
        expiresAt,
        url,
        commands: [
          {
            kind: single ? 'file' : 'zip',
            command: `curl -fS ${config.option} -o ${q(out)} ${q(url)} ${config.doc}`,
          },
        ],
      };
    },
    async userToken(user: EfileUser, p: string) {
      const dir = await userfs.resolve(user, p);
      const { token, expiresAt } = await issue(user, 'both', [dir.clusterPath]);
      return { token, clusterUserName: user.cun, expiresAt };
    },

    async putFile(token: string, name: string, body: Readable, overwrite: boolean) {
      const { real, scope } = await verify(token, 'up');
      // Streamed to a temp sibling, fsynced and renamed into place by the token's user (their worker in unix mode).
      const bytes = await userfs.writeStream(scope, `${real[0]}/${validateName(name)}`, body, overwrite);
      return { files: 1, dirs: 0, skipped: [] as string[], bytes };
    },

    /** Extracts a tar stream into the token's folder, as its user (see `extractTarInto` for the safety rules). */
    async putTar(token: string, body: Readable, overwrite: boolean) {
      const { items, real, sub, scope } = await verify(token, 'up');
      // Recorded while it runs: an efile killed mid-extraction leaves a staging folder there for the sweep.
      const end = await partials.stage(
        { sub, cun: scope.cun },
        { clusterPath: real[0]!, host: items[0]!.host },
      );
      try {
        return await userfs.extractTar(scope, real[0]!, body, overwrite);
      } finally {
        // A record that could not be removed now only sends the sweep to look in this folder later.
        await end().catch(() => undefined);
      }
    },

    async getPaths(token: string) {
      const { items, scope } = await verify(token, 'down');
      return { items, scope };
    },
  };
}
export type LinuxService = ReturnType<typeof linuxService>;
