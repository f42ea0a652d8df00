/** Cluster path helpers: POSIX paths such as `/public/home/demo/a.txt`, never ending in '/' except the root. */

export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir.replace(/\/+$/, '')}/${name}`;
}

export function parentPath(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

export function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** The name split at its last dot; dot files (`.bashrc`) have no extension. */
export function splitExt(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? { stem: name.slice(0, dot), ext: name.slice(dot) } : { stem: name, ext: '' };
}

/** The first `name(1).ext`, `name(2).ext`, … that `taken` says is free ("keep both" of an upload conflict). */
export function keepBothName(name: string, taken: (candidate: string) => boolean): string {
  const { stem, ext } = splitExt(name);
  for (let i = 1; ; i++) {
    const candidate = `${stem}(${i})${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * A path typed into "go to path": trimmed, made absolute-looking, `.`/`..` and repeated slashes refused rather
 * than resolved (the server refuses non-normalised input too). Returns null when unusable.
 */
export function normalizeTypedPath(input: string): string | null {
  const raw = input.trim();
  if (!raw.startsWith('/') || raw.includes('\0')) return null;
  const trimmed = raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
  if (trimmed === '/') return '/';
  const segs = trimmed.slice(1).split('/');
  if (segs.some((s) => s === '' || s === '.' || s === '..')) return null;
  return trimmed;
}

export interface Crumb {
  name: string;
  path: string;
}

/**
 * Breadcrumb of `path`: the root the user may browse (home or a shared folder) is one crumb, then each folder
 * below it, so the user never gets a crumb for a folder they cannot open.
 */
export function breadcrumbs(path: string, roots: readonly string[]): Crumb[] {
  const root = [...roots]
    .sort((a, b) => b.length - a.length)
    .find((r) => path === r || path.startsWith(r === '/' ? '/' : `${r}/`));
  if (!root) return [{ name: path, path }];
  const crumbs: Crumb[] = [{ name: root, path: root }];
  const rest = path.slice(root.length).split('/').filter(Boolean);
  let acc = root;
  for (const seg of rest) {
    acc = joinPath(acc, seg);
    crumbs.push({ name: seg, path: acc });
  }
  return crumbs;
}

/** Whether `path` lies inside (or is) one of the roots. */
export function isInsideRoots(path: string, roots: readonly string[]): boolean {
  return roots.some((r) => path === r || path.startsWith(r === '/' ? '/' : `${r}/`));
}
