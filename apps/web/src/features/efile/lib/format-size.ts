const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

/**
 * The file manager's size text (spec §9 "Size display"): bytes as they are, KB with no decimals, MB and GB with
 * one. Folders have no meaningful size; callers pass a file's size only.
 */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '-';
  if (bytes < KB) return `${Math.round(bytes)} B`;
  if (bytes < MB) return `${Math.round(bytes / KB)} KB`;
  if (bytes < GB) return `${(bytes / MB).toFixed(1)} MB`;
  return `${(bytes / GB).toFixed(1)} GB`;
}

/** Upload speed, e.g. "12.3 MB/s". */
export const formatSpeed = (bytesPerSecond: number): string => `${formatSize(bytesPerSecond)}/s`;
