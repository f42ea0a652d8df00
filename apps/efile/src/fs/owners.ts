import fs from 'node:fs';

/**
 * uid/gid → name from /etc/passwd and /etc/group, read again when either file changes (its mtime, size or inode),
 * looked at at most once a second: an account made a minute ago has its name at once (it waited up to a minute when
 * the cache simply aged), and a listing of 100,000 entries does not stat the two files 100,000 times.
 */
let cache: {
  stamp: string;
  checkedAt: number;
  users: Map<number, string>;
  groups: Map<number, string>;
  byName: Map<string, { uid: number; gid: number }>;
} | null = null;

const stampOf = () =>
  ['/etc/passwd', '/etc/group']
    .map((f) => {
      const st = fs.statSync(f, { throwIfNoEntry: false });
      return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-';
    })
    .join(' ');

function load() {
  const now = Date.now();
  if (cache && now - cache.checkedAt < 1000) return cache;
  const stamp = stampOf();
  if (cache?.stamp === stamp) {
    cache.checkedAt = now;
    return cache;
  }
  const users = new Map<number, string>();
  const groups = new Map<number, string>();
  const byName = new Map<string, { uid: number; gid: number }>();
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8').split('\n');
    } catch {
      return [];
    }
  };
  for (const line of read('/etc/passwd')) {
    const [name, , uid, gid] = line.split(':');
    if (name && uid) {
      users.set(Number(uid), name);
      byName.set(name, { uid: Number(uid), gid: Number(gid) });
    }
  }
  for (const line of read('/etc/group')) {
    const [name, , gid] = line.split(':');
    if (name && gid) groups.set(Number(gid), name);
  }
  cache = { stamp, checkedAt: now, users, groups, byName };
  return cache;
}

export const userName = (uid: number): string => load().users.get(uid) ?? String(uid);
export const groupName = (gid: number): string => load().groups.get(gid) ?? String(gid);
/** The uid/gid of an account of this node by name, or null. */
export const lookupUser = (name: string) => load().byName.get(name) ?? null;
/** The name of a real (non-system) account of this node with this uid: uid ≥ 1000, not nobody. */
export const realUserName = (uid: number): string | null =>
  uid >= 1000 && uid !== 65534 ? (load().users.get(uid) ?? null) : null;

/** `ls -l`'s first letter for the file type bits of a mode (S_IFMT). */
const KIND: Record<number, string> = {
  0o040000: 'd',
  0o120000: 'l',
  0o010000: 'p',
  0o140000: 's',
  0o020000: 'c',
  0o060000: 'b',
};

/**
 * `ls -l` style permission string of an lstat's mode, its first letter the kind as `ls` says it: a FIFO or a
 * socket among a user's files shows as `p…`/`s…`, not as a file (`-`) that would hang or fail when opened.
 */
export function permissionString(mode: number): string {
  const bits = 'rwxrwxrwx';
  let s = KIND[mode & 0o170000] ?? '-';
  for (let i = 0; i < 9; i++) s += mode & (1 << (8 - i)) ? bits[i] : '-';
  const arr = s.split('');
  if (mode & 0o4000) arr[3] = arr[3] === 'x' ? 's' : 'S';
  if (mode & 0o2000) arr[6] = arr[6] === 'x' ? 's' : 'S';
  if (mode & 0o1000) arr[9] = arr[9] === 'x' ? 't' : 'T';
  return arr.join('');
}
