import { Limits, type FileEntry } from '@hpc/contracts';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import type { ListOptions } from '../../fs/listing';
import { PARTIAL_SUFFIX } from '../../fs/names';
import type { ShareRepository } from '../share';

const parentOf = (p: string) => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));
const joinCluster = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/**
 * The everyday calls: list, create, remove, rename, exist, tree, permission check, initInfo. The files themselves
 * are the user file system's (`deps.userfs`: this process in single mode, the user's worker in unix mode); this
 * service keeps what follows from them (shares closed or moved with their items).
 */
export function filesService(deps: EfileDeps, shares: ShareRepository) {
  const { userfs } = deps;

  return {
    list(
      user: EfileUser,
      q: ListOptions & { path: string },
    ): Promise<{ path: string; list: FileEntry[]; total: number }> {
      return userfs.list(user, q.path, q);
    },

    mkdir: (user: EfileUser, p: string) => userfs.mkdir(user, p),
    touch: (user: EfileUser, p: string) => userfs.touch(user, p),

    async remove(user: EfileUser, paths: string[], recursive: boolean) {
      const removed = await userfs.remove(user, paths, recursive);
      for (const p of removed) await shares.closeUnder(p, deps.now());
      return removed.length;
    },

    async rename(user: EfileUser, p: string, newName: string) {
      const { from, to } = await userfs.rename(user, p, newName);
      await shares.closeUnder(from, deps.now()); // spec §5: sharing becomes invalid
      return to;
    },

    exist: (user: EfileUser, p: string) => userfs.exist(user, p),

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

    /** Child folders for the lazy tree of the copy/move dialogs; without a path, the user's roots. */
    async tree(user: EfileUser, p?: string) {
      if (!p) {
        return { list: user.roots.map((r) => ({ name: r, path: r, isLeaf: false })), truncated: false };
      }
      return userfs.tree(user, p);
    },

    /** Whether the user may read or write a path: in unix mode the kernel's answer (access(2) in the worker). */
    checkPermission: (user: EfileUser, p: string, action: 'read' | 'write') => userfs.access(user, p, action),
  };
}
export type FilesService = ReturnType<typeof filesService>;
export { joinCluster, parentOf };
