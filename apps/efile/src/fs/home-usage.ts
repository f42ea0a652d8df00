import fs from 'node:fs/promises';
import path from 'node:path';
import type { RecentFile } from '@hpc/contracts';

export interface HomeUsageCount {
  usedBytes: number;
  files: number;
  partial: boolean;
  fsTotalBytes: number;
  fsFreeBytes: number;
  recent: RecentFile[];
}

export interface HomeUsageOptions {
  /** Stop after this many entries (a lower bound is answered, `partial`). */
  maxEntries: number;
  /** Most recently modified files kept. */
  recent: number;
  /** Cluster path of `host`, for the recent files' paths. */
  clusterPath: string;
}

/**
 * Counts a home's used space (allocated blocks, as `du`) and finds its most recently modified files, walking without
 * following links (a link counts as itself). Run as the user, so it sees what the user may see: an unreadable folder
 * is skipped, not an error. Folders and files whose name starts with a dot are counted but not listed as recent.
 */
export async function countHome(host: string, o: HomeUsageOptions): Promise<HomeUsageCount> {
  let usedBytes = 0;
  let files = 0;
  let seen = 0;
  let partial = false;
  const recent: RecentFile[] = [];
  const keep = (f: RecentFile) => {
    if (recent.length < o.recent) recent.push(f);
    else if (f.mtime > recent[recent.length - 1]!.mtime) recent[recent.length - 1] = f;
    else return;
    recent.sort((a, b) => b.mtime - a.mtime);
  };
  // Depth first with an explicit stack: a deep tree must not grow the call stack.
  const stack: { host: string; cluster: string; hidden: boolean }[] = [
    { host, cluster: o.clusterPath, hidden: false },
  ];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = await fs.readdir(dir.host);
    } catch {
      continue;
    }
    for (const name of names) {
      if (++seen > o.maxEntries) {
        partial = true;
        stack.length = 0;
        break;
      }
      const h = path.join(dir.host, name);
      let st;
      try {
        st = await fs.lstat(h);
      } catch {
        continue;
      }
      usedBytes += st.blocks * 512;
      const hidden = dir.hidden || name.startsWith('.');
      const cluster = `${dir.cluster.replace(/\/+$/, '')}/${name}`;
      if (st.isDirectory()) stack.push({ host: h, cluster, hidden });
      else if (st.isFile()) {
        files++;
        if (!hidden) keep({ name, path: cluster, size: st.size, mtime: st.mtimeMs });
      }
    }
  }
  const sfs = await fs.statfs(host);
  return {
    usedBytes,
    files,
    partial,
    fsTotalBytes: sfs.blocks * sfs.bsize,
    fsFreeBytes: sfs.bavail * sfs.bsize,
    recent,
  };
}
