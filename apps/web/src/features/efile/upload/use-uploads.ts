import { useEffect, useSyncExternalStore } from 'react';
import type { UploadTarget } from './upload-queue';
import { uploadEngine } from './upload-store';

/** The upload list rows, re-rendered on state changes and on the 500 ms progress tick. */
export function useUploadRows() {
  return useSyncExternalStore(uploadEngine.subscribe, uploadEngine.getSnapshot);
}

/**
 * Calls `onLanded` (debounced) when an upload lands in `clusterId:dir`, so the folder on screen shows new files
 * without reloading it for each of a thousand files.
 */
export function useUploadLanded(clusterId: string | null, dir: string | null, onLanded: () => void) {
  useEffect(() => {
    if (!clusterId || !dir) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = uploadEngine.onFileDone((target: UploadTarget, file) => {
      if (target.clusterId !== clusterId) return;
      const top = file.relativePath.split('/')[0] ?? '';
      const landedIn = target.dir === dir || dir.startsWith(`${target.dir === '/' ? '' : target.dir}/${top}`);
      if (!landedIn) return;
      clearTimeout(timer);
      timer = setTimeout(onLanded, 300);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [clusterId, dir, onLanded]);
}
