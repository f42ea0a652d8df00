import { Limits } from '@hpc/contracts';
import { local } from '../../../shared/utils/storage';
import { createEfileApi } from '../api/efile.api';
import { browserTransport } from './chunk-transport';
import { UploadEngine } from './upload-engine';

/**
 * The one upload list of the tab. It lives outside React so that uploads go on while the user moves between pages
 * of the portal; leaving the site stops them (spec §2 notice), and a beforeunload warning says so.
 */
export const uploadEngine = new UploadEngine({
  transport: browserTransport,
  merge: async (target, file) => {
    await createEfileApi(target.clusterId, target.baseUrl).merge({
      path: target.dir,
      relativePath: file.relativePath,
      identifier: file.identifier,
      overwrite: file.overwrite,
    });
  },
  deletePartial: async (target, paths) => {
    await createEfileApi(target.clusterId, target.baseUrl).deletePartial(paths);
  },
});

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (e) => {
    if (!uploadEngine.hasUnfinished()) return;
    e.preventDefault();
    // Older engines need returnValue set to show the prompt.
    e.returnValue = '';
  });
}

const CHUNK_KEY = 'hpc.efile.chunkSizeMiB';
export const CHUNK_SIZE_CHOICES_MIB = [1, 2, 4, 8, 16, 32, 64] as const;

/** The chunk size setting (spec §9 default 1 MiB; larger is a setting, not a code change), capped by the server. */
export function chunkSizeSetting(maxChunkSize = Infinity): number {
  const mib = Number(local.get(CHUNK_KEY));
  const bytes = CHUNK_SIZE_CHOICES_MIB.includes(mib as never) ? mib * 1024 * 1024 : Limits.chunkSize;
  return Math.min(bytes, maxChunkSize);
}

export function setChunkSizeSetting(mib: number): void {
  local.set(CHUNK_KEY, String(mib));
}
