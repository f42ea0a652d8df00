import fs from 'node:fs/promises';
import path from 'node:path';
import { constants } from 'node:fs';
import { Limits, type FileEntry } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import { conflictError, makeDir, removeEntry, renameNoReplace, touchFile } from '../../fs/file-ops';
import { listDirectory, type ListOptions } from '../../fs/listing';
import { PARTIAL_SUFFIX, validateName } from '../../fs/names';
import { lookupUser } from '../../fs/owners';
import type { ShareRepository } from '../share/share.repository';

const parentOf = (p: string) => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));
const joinCluster = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/** The everyday calls: list, create, remove, rename, exist, tree, permission check, initInfo. */
export function filesService(deps: EfileDeps, shares: ShareRepository) {
  const { resolver } = deps;
  const inside = (user: EfileUser) => (real: string) => resolver.contains(user, real);

  return {
    async list(
      user: EfileUser,
      q: ListOptions & { path: string },
    ): Promise<{ path: string; list: FileEntry[]; total: number }> {
      const dir = await resolver.resolve(user, q.path).catch((e: unknown) => {
        throw isAppError(e) && e.code === '1020' ? new AppError('1024') : e;
      });
      const { list, total } = await listDirectory(dir.host, dir.clusterPath, q, inside(user));
      return { path: dir.clusterPath, list, total };
    },

    async mkdir(user: EfileUser, p: string) {
      const t = await resolver.resolve(user, p, { follow: false, mustExist: false });
      validateName(t.name);
      await makeDir(t);
      return t.clusterPath;
    },

    async touch(user: EfileUser, p: string) {
      const t = await resolver.resolve(user, p, { follow: false, mustExist: false });
      validateName(t.name);
      await touchFile(t);
      return t.clusterPath;
    },

    async remove(user: EfileUser, paths: string[], recursive: boolean) {
      // Resolve all first: a bad path anywhere changes nothing.
      const targets = [];
      for (const p of paths) targets.push(await resolver.resolve(user, p, { follow: false }));
      for (const t of targets) {
        await removeEntry(t, recursive);
        await shares.closeUnder(t.clusterPath, deps.now());
      }
      return targets.length;
    },

    async rename(user: EfileUser, p: string, newName: string) {
      const src = await resolver.resolve(user, p, { follow: false });
      if (newName === src.name) throw new AppError('1005', 'Name not modified!');
      validateName(newName);
      const to = joinCluster(parentOf(src.clusterPath), newName);
      const dst = await resolver.resolve(user, to, { follow: false, mustExist: false });
      if (dst.stat) throw conflictError(dst.stat.isDirectory());
      await renameNoReplace(src.host, dst.host, src.stat!.isDirectory());
      await shares.closeUnder(src.clusterPath, deps.now()); // spec §5: sharing becomes invalid
      return dst.clusterPath;
    },

    async exist(user: EfileUser, p: string) {
      try {
        const t = await resolver.resolve(user, p, { mustExist: false });
        if (!t.stat) return { exist: false, isDirectory: false };
        const s = await fs.stat(t.host).catch(() => t.stat!);
        return { exist: true, isDirectory: s.isDirectory() };
      } catch (e) {
        if (isAppError(e) && e.code === '1020') return { exist: false, isDirectory: false };
        throw e;
      }
    },

    initInfo(user: EfileUser) {
      const c = deps.config;
      return {
        clusterId: c.EFILE_CLUSTER_ID,
        homePath: user.home,
        username: user.cun,
        sharePath: c.EFILE_SHARE_ROOT,
        roots: user.roots,
        shareMaxValidDays: c.EFILE_SHARE_MAX_VALID_DAYS,
        chunkSize: Limits.chunkSize,
        maxChunkSize: c.EFILE_MAX_CHUNK_SIZE,
        simultaneousUploads: Limits.simultaneousUploads,
        folderFileLimit: c.EFILE_FOLDER_FILE_LIMIT,
        previewMaxBytes: c.EFILE_PREVIEW_MAX_BYTES,
        downloadPathLimit: Limits.downloadPathLimit,
        nameMaxLength: Limits.nameMaxLength,
        partialSuffix: PARTIAL_SUFFIX,
      };
    },

    /** Child folders for the lazy tree of the copy/move dialogs, bounded to 2000 per folder. */
    async tree(user: EfileUser, p?: string) {
      if (!p) {
        return { list: user.roots.map((r) => ({ name: r, path: r, isLeaf: false })), truncated: false };
      }
      const dir = await resolver.resolve(user, p);
      const out: { name: string; path: string; isLeaf: boolean }[] = [];
      let truncated = false;
      const handle = await fs.opendir(dir.host, { bufferSize: 256 });
      for await (const d of handle) {
        if (d.name.startsWith('.')) continue;
        let isDir = d.isDirectory();
        if (d.isSymbolicLink()) {
          const real = await fs.realpath(path.join(dir.host, d.name)).catch(() => null);
          isDir = !!real && (await resolver.contains(user, real)) && (await fs.stat(real)).isDirectory();
        }
        if (!isDir) continue;
        if (out.length >= 2000) {
          truncated = true;
          break;
        }
        out.push({ name: d.name, path: joinCluster(dir.clusterPath, d.name), isLeaf: false });
      }
      out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { list: out, truncated };
    },

    /**
     * Whether the user may read or write a path. Single-OS-user mode: inside the roots, then the mode bits for the
     * compute user's uid/gid when this node knows the user, else access(2) for the service's own identity.
     */
    async checkPermission(user: EfileUser, p: string, action: 'read' | 'write') {
      let host: string;
      try {
        host = (await resolver.resolve(user, p)).host;
      } catch (e) {
        if (isAppError(e)) return false;
        throw e;
      }
      const st = await fs.stat(host);
      const want = action === 'read' ? 4 : 2;
      const u = lookupUser(user.cun);
      if (u) {
        if (u.uid === 0) return true;
        const bits =
          st.uid === u.uid ? (st.mode >> 6) & 7 : st.gid === u.gid ? (st.mode >> 3) & 7 : st.mode & 7;
        return (bits & want) !== 0;
      }
      return fs.access(host, action === 'read' ? constants.R_OK : constants.W_OK).then(
        () => true,
        () => false,
      );
    },
  };
}
export type FilesService = ReturnType<typeof filesService>;
export { joinCluster, parentOf };
