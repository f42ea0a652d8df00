import fs from 'node:fs/promises';
import path from 'node:path';
import type { Stats } from 'node:fs';
import { AppError } from '@hpc/server-kit';
import { errno } from './errno';
import { ClusterKitText } from '../messages';
import { CommonCodes, FileCodes } from '@hpc/contracts';

/** The cluster paths a user may touch: their home first, then the shared paths the portal granted. */
export interface UserScope {
  roots: string[];
}

export interface Resolved {
  /** The normalised cluster path as the user named it (symlinks not expanded). */
  clusterPath: string;
  /** Host path to operate on: fully real in follow mode, `realParent/name` in no-follow mode. */
  host: string;
  /** Real host path of the parent folder (equal to `host`'s dirname). */
  parentHost: string;
  name: string;
  /** lstat of `host`, null when nothing is there. */
  stat: Stats | null;
  /** The allowed cluster root the path is under. */
  root: string;
}

export interface ResolveOptions {
  /**
   * Follow a symlink in the final component (read, list, download). Mutating calls (remove, rename, create) pass
   * false so that they act on the link itself and never on what it points to.
   */
  follow?: boolean;
  /** Throw "1020" when nothing exists at the path (default true). */
  mustExist?: boolean;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Validates a user-supplied cluster path without touching the disk: absolute, no NUL or control characters, no
 * empty, `.` or `..` segments (non-normalised input is refused, not repaired), bounded length. One trailing slash
 * is tolerated. Percent-encoded or look-alike characters are ordinary name characters: they are never decoded
 * again nor NFKC-folded, so `%2e%2e` or U+FF0E U+FF0E is a (harmless) file name, not a parent reference.
 */
/** One segment of a path (a file name) as file systems take it: at most 255 bytes. */
export function assertSegmentLength(seg: string): void {
  if (Buffer.byteLength(seg) > 255)
    throw new AppError(CommonCodes.illegalParams, ClusterKitText.pathSegmentTooLong);
}

export function normalizeClusterPath(input: unknown): string {
  if (typeof input !== 'string' || input.length === 0)
    throw new AppError(CommonCodes.incompleteParams, ClusterKitText.pathRequired);
  if (input.length > 4096 || CONTROL.test(input)) throw new AppError(CommonCodes.illegalParams);
  if (!input.startsWith('/')) throw new AppError(CommonCodes.illegalParams, ClusterKitText.pathNotAbsolute);
  const p = input.length > 1 && input.endsWith('/') ? input.slice(0, -1) : input;
  if (p === '/') return p;
  for (const seg of p.slice(1).split('/')) {
    if (seg === '' || seg === '.' || seg === '..')
      throw new AppError(CommonCodes.illegalParams, ClusterKitText.pathSegmentNotAllowed);
    assertSegmentLength(seg);
  }
  return p;
}

/** True when `p` is `root` or below it (both normalised, same kind: cluster or host). */
export const isUnder = (p: string, root: string): boolean =>
  root === '/' ? p.startsWith('/') : p === root || p.startsWith(root + '/');

/**
 * A path the user may not look into (a folder of another account's, reached through a link of theirs): "1030", as
 * efile answers it, never the system's words with 1001 (found from outside, 2026-12-01: a job's working directory).
 */
function deniedOr(e: unknown): never {
  if (errno(e) === 'EACCES' || errno(e) === 'EPERM') throw new AppError(FileCodes.permissionDenied);
  throw e;
}

/**
 * The one path resolver (DESIGN.md §7). Every call maps a cluster path to a host path under `fsRoot`, resolves the
 * symlinks of the existing part with realpath, and refuses ("1030") anything whose real location is outside the
 * real location of one of the user's roots. Callers then operate on the returned real host path (never on the
 * user's string) and open final components with O_NOFOLLOW, so a link swapped in after resolution is not followed.
 */
export class PathResolver {
  private readonly rootCache = new Map<string, { real: string | null; at: number }>();

  constructor(readonly fsRoot: string) {}

  /** Host path of a cluster path (no symlink resolution). */
  hostOf(clusterPath: string): string {
    return this.fsRoot === '/' ? clusterPath : path.join(this.fsRoot, clusterPath);
  }

  /** Normalised roots of a scope (invalid roots are dropped: they come from a signed token, but stay defensive). */
  static roots(scope: UserScope): string[] {
    const out: string[] = [];
    for (const r of scope.roots) {
      try {
        out.push(normalizeClusterPath(r));
      } catch {
        /* ignore a malformed granted path */
      }
    }
    return out;
  }

  /** The allowed root a normalised cluster path falls under, or null. */
  findRoot(scope: UserScope, clusterPath: string): string | null {
    return PathResolver.roots(scope).find((r) => isUnder(clusterPath, r)) ?? null;
  }

  /** Real host path of a cluster root, cached briefly (roots are admin-made folders that rarely move). */
  async realRoot(root: string): Promise<string | null> {
    const hit = this.rootCache.get(root);
    if (hit && Date.now() - hit.at < 5_000) return hit.real;
    let real: string | null = null;
    try {
      real = await fs.realpath(this.hostOf(root));
    } catch {
      real = null;
    }
    this.rootCache.set(root, { real, at: Date.now() });
    return real;
  }

  async realRoots(scope: UserScope): Promise<string[]> {
    const out: string[] = [];
    for (const r of PathResolver.roots(scope)) {
      const real = await this.realRoot(r);
      if (real) out.push(real);
    }
    return out;
  }

  /** Whether a real host path lies inside one of the scope's real roots. */
  async contains(scope: UserScope, realHost: string): Promise<boolean> {
    return (await this.realRoots(scope)).some((r) => isUnder(realHost, r));
  }

  async resolve(scope: UserScope, input: unknown, opts: ResolveOptions = {}): Promise<Resolved> {
    const follow = opts.follow ?? true;
    const mustExist = opts.mustExist ?? true;
    const clusterPath = normalizeClusterPath(input);
    const root = this.findRoot(scope, clusterPath);
    if (!root) throw new AppError(FileCodes.permissionDenied, ClusterKitText.pathOutsideRoots);
    const realRoots = await this.realRoots(scope);
    const inside = (p: string) => realRoots.some((r) => isUnder(p, r));
    const host = this.hostOf(clusterPath);

    if (follow) {
      let real: string | null = null;
      try {
        real = await fs.realpath(host);
      } catch (e) {
        if (errno(e) === 'ELOOP') throw new AppError(FileCodes.permissionDenied, ClusterKitText.tooManyLinks);
        if (errno(e) !== 'ENOENT' && errno(e) !== 'ENOTDIR') deniedOr(e);
      }
      if (real !== null) {
        if (!inside(real)) throw new AppError(FileCodes.permissionDenied, ClusterKitText.pathLeadsOutside);
        // Gone between realpath and lstat: the same answer as gone before.
        const stat = await fs.lstat(real).catch((e: unknown) => {
          if (errno(e) === 'ENOENT' || errno(e) === 'ENOTDIR') throw new AppError(FileCodes.notFound);
          throw e;
        });
        return {
          clusterPath,
          host: real,
          parentHost: path.dirname(real),
          name: path.basename(clusterPath),
          stat,
          root,
        };
      }
    }
    if (clusterPath === '/') throw new AppError(FileCodes.permissionDenied);
    let parentHost: string;
    try {
      parentHost = await fs.realpath(path.dirname(host));
    } catch (e) {
      if (errno(e) === 'ENOENT' || errno(e) === 'ENOTDIR') {
        // Say "does not exist" only for what the user may see; outside the roots stays "insufficient permission".
        throw new AppError(FileCodes.notFound, ClusterKitText.parentMissing);
      }
      if (errno(e) === 'ELOOP') throw new AppError(FileCodes.permissionDenied, ClusterKitText.tooManyLinks);
      throw e;
    }
    if (!inside(parentHost)) throw new AppError(FileCodes.permissionDenied, ClusterKitText.pathLeadsOutside);
    const name = path.basename(clusterPath);
    const target = path.join(parentHost, name);
    let stat: Stats | null = null;
    try {
      stat = await fs.lstat(target);
    } catch (e) {
      if (errno(e) !== 'ENOENT' && errno(e) !== 'ENOTDIR') deniedOr(e);
    }
    if (follow && stat?.isSymbolicLink()) {
      // realpath failed, yet a link is there: it leads nowhere. Where it would lead decides the answer, never
      // whether something exists there: outside the roots is "1030" like a link to an existing outside target
      // (issue 10 §2.8: answering 1020 or `exist: true` here told the user what exists in other users' folders).
      if (!(await this.danglingInside(target, inside)))
        throw new AppError(FileCodes.permissionDenied, ClusterKitText.pathLeadsOutside);
      if (mustExist) throw new AppError(FileCodes.notFound, ClusterKitText.danglingLink);
    }
    if (!stat && mustExist) throw new AppError(FileCodes.notFound);
    return { clusterPath, host: target, parentHost, name, stat, root };
  }

  /**
   * Whether a link that realpath could not follow would lead inside the roots: each link of the chain is read and
   * its target placed under the real path of its deepest existing folder. Anything unreadable counts as outside.
   */
  private async danglingInside(linkHost: string, inside: (p: string) => boolean): Promise<boolean> {
    let p = linkHost;
    for (let hops = 0; hops < 40; hops++) {
      let to: string;
      try {
        to = await fs.readlink(p);
      } catch {
        return false;
      }
      let probe = path.resolve(path.dirname(p), to);
      const rest: string[] = [];
      for (;;) {
        try {
          p = path.join(await fs.realpath(probe), ...rest);
          break;
        } catch (e) {
          if ((errno(e) !== 'ENOENT' && errno(e) !== 'ENOTDIR') || probe === '/') return false;
          rest.unshift(path.basename(probe));
          probe = path.dirname(probe);
        }
      }
      const l = await fs.lstat(p).catch(() => null);
      if (!l?.isSymbolicLink()) return inside(p);
    }
    return false;
  }

  /**
   * The no-follow resolution of `name` inside `dir`, a folder just resolved by `resolve` (so its host path is real
   * and inside the roots): the same answer as `resolve(scope, dir.clusterPath + '/' + name, { follow: false,
   * mustExist: false })` without realpath-ing the parent a second time (chunk uploads do this twice per chunk).
   * `name` must be one validated segment (no '/', '.', '..').
   */
  async child(dir: Resolved, name: string): Promise<Resolved> {
    assertSegmentLength(name);
    const host = path.join(dir.host, name);
    let stat: Stats | null = null;
    try {
      stat = await fs.lstat(host);
    } catch (e) {
      if (errno(e) !== 'ENOENT' && errno(e) !== 'ENOTDIR') deniedOr(e);
    }
    const clusterPath = (dir.clusterPath === '/' ? '' : dir.clusterPath) + '/' + name;
    return { clusterPath, host, parentHost: dir.host, name, stat, root: dir.root };
  }

  /** Maps a real host path back to its cluster path (for display of resolved items). */
  toCluster(realHost: string): string {
    if (this.fsRoot === '/') return realHost;
    const rel = path.relative(this.fsRoot, realHost);
    return '/' + rel.split(path.sep).join('/');
  }
}
