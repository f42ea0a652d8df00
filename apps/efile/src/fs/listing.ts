import fs from 'node:fs/promises';
import path from 'node:path';
import type { Stats } from 'node:fs';
import { CommonCodes, FileCodes, type FileEntry } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { LRUCache } from 'lru-cache';
import { mapLimit } from './concurrency';
import { fsError } from './file-ops';
import { isInternalName } from './names';
import { groupName, permissionString, userName } from './owners';
import { isUnder } from '@hpc/cluster-kit';

export interface ListOptions {
  pageNum: number;
  pageSize: number;
  sort: string;
  order: 'asc' | 'desc';
  keyword?: string;
  showHidden?: boolean;
}

interface Name {
  name: string;
  lower: string;
  dir: boolean;
  ext: string;
}

const SORTS = new Set(['name', 'size', 'mtime', 'type', 'owner', 'permission']);
const STAT_CONCURRENCY = 32;
// Names of a directory keyed by its identity and mtime: the second page of a 100,000-entry folder needs no readdir.
const namesCache = new LRUCache<string, Name[]>({ max: 16, ttl: 30_000 });
const sortedCache = new LRUCache<string, Name[]>({ max: 32, ttl: 30_000 });
const statsCache = new LRUCache<string, Map<string, Stats | null>>({ max: 8, ttl: 10_000 });

const extOf = (name: string, dir: boolean) => {
  if (dir) return '';
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(i + 1).toLowerCase() : '';
};

async function readNames(dirHost: string, key: string): Promise<Name[]> {
  const hit = namesCache.get(key);
  if (hit) return hit;
  // One readdir (a single scandir on the thread pool, d_type included) rather than iterating opendir: for 100,000
  // entries that is ~75 ms instead of ~130 ms, per-entry promise hops being the difference. The Dirent array is
  // transient; what is kept (and cached) is the Name list either way.
  const out: Name[] = [];
  for (const d of await fs.readdir(dirHost, { withFileTypes: true }).catch(fsError)) {
    if (isInternalName(d.name)) continue;
    const isDir = d.isDirectory();
    out.push({ name: d.name, lower: d.name.toLowerCase(), dir: isDir, ext: extOf(d.name, isDir) });
  }
  namesCache.set(key, out);
  return out;
}

async function statAll(dirHost: string, key: string, names: Name[]): Promise<Map<string, Stats | null>> {
  const hit = statsCache.get(key);
  if (hit && hit.size >= names.length) return hit;
  const map = new Map<string, Stats | null>();
  await mapLimit(names, STAT_CONCURRENCY, async (n) => {
    map.set(n.name, await fs.lstat(path.join(dirHost, n.name)).catch(() => null));
  });
  statsCache.set(key, map);
  return map;
}

const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One page of a directory (DESIGN §8): names from readdir, filtered and sorted (folders first), then lstat only
 * for the page with bounded concurrency. Sorting by size, time, owner or permission stats every entry with bounded
 * concurrency and caches the result briefly, keyed by the folder's identity and mtime.
 */
export async function listDirectory(
  dirHost: string,
  clusterDir: string,
  opts: ListOptions,
  linkInside: (realHost: string) => Promise<boolean>,
): Promise<{ list: FileEntry[]; total: number }> {
  const st = await fs.stat(dirHost).catch(() => null);
  if (!st) throw new AppError(FileCodes.dirNotFound);
  if (!st.isDirectory()) throw new AppError(FileCodes.notAFolder);
  if (!SORTS.has(opts.sort)) throw new AppError(CommonCodes.invalidInput, `Unknown sort column ${opts.sort}`);
  const base = `${st.dev}:${st.ino}:${st.mtimeMs}:${st.ctimeMs}`;
  const all = await readNames(dirHost, base);
  const kw = opts.keyword?.trim().toLowerCase() ?? '';
  const viewKey = `${base}|${opts.sort}|${opts.order}|${kw}|${opts.showHidden ? 1 : 0}`;
  let view = sortedCache.get(viewKey);
  if (!view) {
    view = all.filter((n) => (opts.showHidden || !n.name.startsWith('.')) && (!kw || n.lower.includes(kw)));
    let cmp: (a: Name, b: Name) => number = (a, b) => cmpStr(a.lower, b.lower) || cmpStr(a.name, b.name);
    if (opts.sort === 'type') {
      const byName = cmp;
      cmp = (a, b) => cmpStr(a.ext, b.ext) || byName(a, b);
    } else if (opts.sort !== 'name') {
      const stats = await statAll(dirHost, base, view);
      const key = (n: Name): number | string => {
        const s = stats.get(n.name);
        if (!s) return 0;
        if (opts.sort === 'size') return s.size;
        if (opts.sort === 'mtime') return s.mtimeMs;
        if (opts.sort === 'owner') return userName(s.uid);
        return s.mode & 0o7777;
      };
      const keys = new Map(view.map((n) => [n.name, key(n)]));
      const byName = cmp;
      cmp = (a, b) => {
        const ka = keys.get(a.name)!;
        const kb = keys.get(b.name)!;
        return (ka < kb ? -1 : ka > kb ? 1 : 0) || byName(a, b);
      };
    }
    const dir = opts.order === 'desc' ? -1 : 1;
    view.sort((a, b) => (a.dir === b.dir ? dir * cmp(a, b) : a.dir ? -1 : 1));
    sortedCache.set(viewKey, view);
  }
  const start = (opts.pageNum - 1) * opts.pageSize;
  const page = view.slice(start, start + opts.pageSize);
  const list = await mapLimit(page, STAT_CONCURRENCY, (n) =>
    describeEntry(
      path.join(dirHost, n.name),
      `${clusterDir === '/' ? '' : clusterDir}/${n.name}`,
      n.name,
      linkInside,
    ),
  );
  return { list: list.filter((e): e is FileEntry => e !== null), total: view.length };
}

/**
 * The columns of one entry. A symlink whose real target is inside the user's roots shows its target's type and size
 * (it is followed); one that leads outside or nowhere shows as a bare 'link' and is never followed.
 */
export async function describeEntry(
  host: string,
  clusterPath: string,
  name: string,
  linkInside: (realHost: string) => Promise<boolean>,
): Promise<FileEntry | null> {
  const l = await fs.lstat(host).catch(() => null);
  if (!l) return null;
  let s: Stats = l;
  let type = l.isDirectory() ? 'dir' : 'file';
  const isLink = l.isSymbolicLink();
  if (isLink) {
    type = 'link';
    const real = await fs.realpath(host).catch(() => null);
    if (real && (await linkInside(real))) {
      const t = await fs.stat(real).catch(() => null);
      if (t) {
        s = t;
        type = t.isDirectory() ? 'dir' : 'file';
      }
    }
  }
  const isDirectory = type === 'dir';
  return {
    name,
    path: clusterPath,
    type,
    isDirectory,
    isLink,
    ext: extOf(name, isDirectory),
    owner: userName(s.uid),
    group: groupName(s.gid),
    size: isDirectory ? 0 : type === 'link' ? l.size : s.size,
    permission: permissionString(l.mode, isLink ? 'l' : isDirectory ? 'd' : '-'),
    mtime: Math.round(s.mtimeMs),
  };
}

export { isUnder };
