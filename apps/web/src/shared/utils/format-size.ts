const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;
const TB = GB * 1024;

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

/**
 * The second size text of spec §9: two decimals, up to TB ("1.50 KB", "2.00 TB"), where the exact size matters: a
 * file's properties, upload totals, shares. Bytes stay whole.
 */
export function formatSizeExact(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '-';
  if (bytes < KB) return `${Math.round(bytes)} B`;
  if (bytes < MB) return `${(bytes / KB).toFixed(2)} KB`;
  if (bytes < GB) return `${(bytes / MB).toFixed(2)} MB`;
  if (bytes < TB) return `${(bytes / GB).toFixed(2)} GB`;
  return `${(bytes / TB).toFixed(2)} TB`;
}
