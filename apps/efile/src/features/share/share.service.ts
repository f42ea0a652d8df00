import crypto from 'node:crypto';
import { CommonCodes, FileCodes, Limits, PortalCodes, ShareCodes } from '@hpc/contracts';
import { AppError, callerKey, createAttemptThrottle, isAppError, type AttemptRule } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import { isUnder, refusalOf, rootsOf } from '@hpc/cluster-kit';
import type { FsScope, Info } from '../../userfs/types';
import { subtreeOf, type ShareRepository, type ShareRow } from './share.repository';
import { EfileText } from '../../messages';

const DAY = 86_400_000;
const SHARE_TOKEN_TTL_MS = 2 * 3600_000;
const FAIL_WINDOW_MS = 15 * 60_000;
const MAX_FAILS = 10;

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * The share rows one user may have (issue: one user's 60,000 shares froze the all-in-one). Closed and expired rows
 * are kept for the owner's list and so that a recipient hears "closed" or "expired" rather than "no such share", but
 * they count: at the limit the oldest of them make room, and only when all are open and valid is a new share
 * refused. Two parallel opens at the limit may each pass the count, so the limit may be passed by a few rows.
 */
export const MAX_SHARES_PER_USER = 10_000;

/**
 * The paths one `isIncludeShareFile` call may ask about: as many as the spec's folder limit (§9), far more than the
 * web's one path per rename; the schema allows 10,000, too many to be worth answering.
 */
export const MAX_INCLUDE_PATHS = Limits.folderFileLimit;

/** Whether a path or one of its parents is in `paths`: its depth of look-ups, whatever the number of paths. */
function atOrUnder(p: string, paths: ReadonlySet<string>): boolean {
  if (paths.has(p)) return true;
  for (let i = p.lastIndexOf('/'); i >= 0; i = p.lastIndexOf('/', i - 1)) {
    if (paths.has(i === 0 ? '/' : p.slice(0, i))) return true;
    if (i === 0) break;
  }
  return false;
}

/**
 * The identity of the shared item (`userfs.identify`): device, inode and birth time in nanoseconds (statx). ext4
 * hands a deleted folder's inode number to the next folder made (seen: `rmdir x; mkdir x` gets the same inode), so
 * dev:ino alone let a new folder at the shared path revive the share; the birth time of the new one differs. Where a
 * file system reports no birth time (0) the identity falls back to dev:ino, and deleting through efile still closes
 * the share. Shares made before this carry `dev:ino` only and are compared on that.
 */
const sameItem = (saved: string, now: string) =>
  saved.split(':').length === 2 ? now.startsWith(`${saved}:`) : saved === now;

/** Shares (issue 4 §6): links with extraction codes, validity, closing, and the anonymous recipient's access. */
export function shareService(deps: EfileDeps, repo: ShareRepository) {
  const { userfs, kv, config } = deps;
  const throttle = createAttemptThrottle(kv);
  /**
   * An address is locked out after MAX_FAILS wrong codes; a share is not (a stranger could then lock the recipient
   * out from everywhere): past MAX_FAILS it only answers one check per growing delay, whoever asks.
   */
  const codeRules = (id: string, ip: string): AttemptRule[] => [
    { key: `share-fail:ip:${callerKey(ip)}`, max: MAX_FAILS, windowMs: FAIL_WINDOW_MS },
    {
      key: `share-fail:s:${id}`,
      max: MAX_FAILS,
      windowMs: FAIL_WINDOW_MS,
      // The recipient's right code is taken back; the strangers' wrong ones stay counted.
      // One code check per delay, doubling from EFILE_SHARE_CODE_MIN_DELAY_S (1 s) up to …_MAX_DELAY_S (30 s).
      delay: {
        baseMs: config.EFILE_SHARE_CODE_MIN_DELAY_S * 1000,
        maxMs: Math.max(config.EFILE_SHARE_CODE_MIN_DELAY_S, config.EFILE_SHARE_CODE_MAX_DELAY_S) * 1000,
      },
    },
  ];

  const statusOf = (r: ShareRow, now: number) =>
    r.closed_at !== null ? 'closed' : r.expires_at <= now ? 'expired' : 'valid';
  const link = (id: string) =>
    `${config.EFILE_PORTAL_PUBLIC_URL.replace(/\/$/, '')}/share/${config.EFILE_CLUSTER_ID}/${id}`;
  const view = (r: ShareRow, now: number) => ({
    shareId: r.id,
    path: r.path,
    name: r.name,
    isDir: r.is_dir === 1,
    link: link(r.id),
    password: r.code,
    validDays: r.valid_days,
    shareTime: Number(r.created_at),
    endUseTime: Number(r.expires_at),
    status: statusOf(r, now),
  });

  function parseDays(raw: string | undefined): number {
    if (raw === undefined || raw.trim() === '')
      throw new AppError(CommonCodes.incompleteParams, EfileText.shareValidityEmpty);
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1)
      throw new AppError(CommonCodes.invalidInput, EfileText.shareValidityIncorrect);
    const days = Number(raw);
    if (days > config.EFILE_SHARE_MAX_VALID_DAYS) {
      throw new AppError(
        CommonCodes.invalidInput,
        EfileText.shareValidityTooLong(config.EFILE_SHARE_MAX_VALID_DAYS),
      );
    }
    return days;
  }

  /**
   * Everything a recipient's access depends on, checked on every call (DESIGN §7, issue 10 §2.3): the share is open
   * and valid; its owner still has the rights to the item NOW (asked of the portal: not disabled, account not
   * disabled or ended, same compute user, the path inside their current home and grants); and the item at the path
   * is the one that was shared (renaming or moving it or a parent makes the share invalid, spec §5).
   */
  async function liveShare(id: string): Promise<{ row: ShareRow; item: Info; scope: FsScope }> {
    const row = await repo.get(id);
    const now = deps.now();
    if (!row) throw new AppError(FileCodes.notFound, EfileText.noSuchShare);
    if (row.closed_at !== null) throw new AppError(ShareCodes.closed);
    if (row.expires_at <= now) throw new AppError(ShareCodes.expired);
    const gone = () => new AppError(ShareCodes.closed, EfileText.sharedItemGone);
    const rights = await deps.ownerRights(row.owner_sub);
    if (!rights || refusalOf(rights, row.owner_cun, now)) throw gone();
    // Everything a recipient reads is read by the owner's worker in unix mode: the kernel checks the owner's rights
    // of today, not the portal's record of them. An owner the node no longer knows ends the share like a lost grant.
    const owner: FsScope = { cun: row.owner_cun, roots: rootsOf(rights, config.EFILE_HOME_PATTERN).roots };
    const found = await userfs.identify(owner, row.path).catch((e: unknown) => {
      // A worker that is busy or restarting is a "retry", not the end of the share.
      if (isAppError(e) && e.code === CommonCodes.unavailable) throw e;
      return null;
    });
    // Never serve something else that appeared under the same name.
    if (found === null || !sameItem(row.dev_ino, found.identity)) throw gone();
    return { row, item: found.info, scope: { cun: row.owner_cun, roots: [row.path] } };
  }

  /** Makes room for one more share of `sub` under MAX_SHARES_PER_USER, or refuses (see there). */
  async function makeRoom(sub: string, now: number) {
    const held = await repo.countByOwner(sub);
    if (held < MAX_SHARES_PER_USER) return;
    const freed = await repo.deleteEnded(sub, now, held - MAX_SHARES_PER_USER + 1);
    if (held - freed >= MAX_SHARES_PER_USER)
      throw new AppError(CommonCodes.invalidInput, EfileText.tooManyShares(MAX_SHARES_PER_USER));
  }

  return {
    async open(user: EfileUser, p: string, validDays: string | undefined, password: string | undefined) {
      const days = parseDays(validDays);
      let code = password?.trim() ?? '';
      if (code === '')
        code = Array.from(crypto.randomBytes(6), (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
      if (!/^[A-Za-z0-9]{4,16}$/.test(code))
        throw new AppError(CommonCodes.invalidInput, EfileText.extractionCodeFormat);
      const { info: item, identity, isDir } = await userfs.identify(user, p);
      const now = deps.now();
      const row: ShareRow = {
        id: crypto.randomBytes(16).toString('base64url'),
        owner_sub: user.sub,
        owner_cun: user.cun,
        path: item.clusterPath,
        name: item.name,
        is_dir: isDir ? 1 : 0,
        dev_ino: identity,
        code,
        roots: JSON.stringify(user.roots),
        valid_days: days,
        created_at: now,
        expires_at: now + days * DAY,
        closed_at: null,
      };
      await makeRoom(user.sub, now);
      await repo.insert(row);
      return view(row, now);
    },
    async close(user: EfileUser, q: { shareId?: string; path?: string }) {
      if (q.shareId) return repo.close(q.shareId, user.sub, deps.now());
      if (q.path) return repo.closeByPath(user.sub, q.path, deps.now());
      throw new AppError(CommonCodes.incompleteParams, EfileText.shareIdOrPathRequired);
    },
    async list(user: EfileUser, pageNum: number, pageSize: number) {
      const { rows, total } = await repo.listByOwner(user.sub, (pageNum - 1) * pageSize, pageSize);
      const now = deps.now();
      return { list: rows.map((r) => view(r, now)), total, pageNum, pageSize };
    },
    /**
     * Whether the paths hold the user's open shares: one read of the owner's open shares (at most
     * MAX_SHARES_PER_USER), each matched against the asked paths by its own parents, not one query per path.
     */
    async includes(user: EfileUser, paths: string[]) {
      if (paths.length > MAX_INCLUDE_PATHS)
        throw new AppError(CommonCodes.invalidInput, EfileText.tooManySharePaths(MAX_INCLUDE_PATHS));
      const asked = new Set(paths.map((p) => subtreeOf(p).self));
      const open = await repo.openPathsOf(user.sub, deps.now());
      const inside = open.filter((p) => atOrUnder(p, asked));
      return { include: inside.length > 0, shared: inside.some((p) => asked.has(p)), count: inside.length };
    },

    async publicInfo(id: string) {
      const { row } = await liveShare(id);
      return {
        shareId: row.id,
        sharer: row.owner_cun,
        isDir: row.is_dir === 1,
        endUseTime: Number(row.expires_at),
      };
    },

    /**
     * Extraction code check: counted in the throttle before the code is looked at (so a parallel burst gets no more
     * checks than the limit), constant-time compare, short-lived token.
     */
    async verify(id: string, password: string, ip: string) {
      const attempt = await throttle.attempt(codeRules(id, ip));
      if (!attempt.allowed) {
        throw new AppError(PortalCodes.tooManyRequests, undefined, {
          data: { retryAfterSeconds: Math.ceil(attempt.retryAfterMs / 1000) },
        });
      }
      const { row } = await liveShare(id);
      const a = crypto.createHash('sha256').update(password).digest();
      const b = crypto.createHash('sha256').update(row.code).digest();
      if (!crypto.timingSafeEqual(a, b)) throw new AppError(ShareCodes.wrongCode);
      await attempt.succeeded();
      const shareToken = crypto.randomBytes(24).toString('base64url');
      await kv.set(`share-token:${shareToken}`, id, SHARE_TOKEN_TTL_MS);
      return {
        shareToken,
        expiresAt: deps.now() + SHARE_TOKEN_TTL_MS,
        name: row.name,
        isDir: row.is_dir === 1,
      };
    },

    /** Resolves a recipient's share token and a path relative to the shared item, confined to it. */
    async access(shareToken: string, rel: string | undefined) {
      const id = await kv.get(`share-token:${shareToken}`);
      if (!id) throw new AppError(CommonCodes.tokenWithoutUser, EfileText.shareTokenExpired);
      const live = await liveShare(id);
      const sub = (rel ?? '').replace(/^\/+|\/+$/g, '');
      const clusterPath = sub ? `${live.row.path}/${sub}` : live.row.path;
      const item = await userfs.resolve(live.scope, clusterPath);
      if (!isUnder(item.clusterPath, live.row.path)) throw new AppError(FileCodes.permissionDenied);
      return { ...live, target: item };
    },
  };
}
export type ShareService = ReturnType<typeof shareService>;
