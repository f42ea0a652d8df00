import { useEffect, useSyncExternalStore } from 'react';
import { isUploading, stableByShape, type RowView, type UploadTarget } from './upload-queue';
import { uploadEngine } from './upload-store';

const listRows = stableByShape(uploadEngine.getSnapshot);

/**
 * The upload list's rows, re-rendered when a row comes, goes or changes state, not on the 500 ms progress tick: a
 * row's progress and speed are read by {@link useUploadProgress} in its own cell. Rebuilding the list's table on
 * every tick cost the page's main thread more than the upload itself.
 */
export function useUploadListRows(): readonly RowView[] {
  return useSyncExternalStore(uploadEngine.subscribe, listRows);
}

/** One row as it is now (progress and speed), re-rendered on every tick; undefined once the row is gone. */
export function useUploadProgress(rowId: string): RowView | undefined {
  return useSyncExternalStore(uploadEngine.subscribe, () =>
    uploadEngine.getSnapshot().find((r) => r.id === rowId),
  );
}

const activeCount = () => uploadEngine.getSnapshot().filter((r) => isUploading(r.status)).length;

/**
 * How many rows are still uploading (the toolbar's badge). A number, not the rows: React skips the re-render when
 * it is unchanged, so the 500 ms progress tick re-renders only the upload panel, not the whole file manager with
 * its table (a profile of a 200 MB upload showed those re-renders at ~35 ms each on the page's main thread).
 */
export function useActiveUploadCount(): number {
  return useSyncExternalStore(uploadEngine.subscribe, activeCount);
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
