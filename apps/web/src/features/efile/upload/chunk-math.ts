/**
 * Chunk geometry exactly as simple-uploader.js 0.6 computes it (forceChunkSize false), which is what the server
 * checks: floor(size / chunkSize) chunks, at least one, the remainder going into the last chunk.
 */
export function totalChunks(size: number, chunkSize: number): number {
  return Math.max(1, Math.floor(size / chunkSize));
}

/** Byte range [start, end) of chunk `n` (1-based). */
export function chunkRange(n: number, size: number, chunkSize: number): { start: number; end: number } {
  const total = totalChunks(size, chunkSize);
  const start = (n - 1) * chunkSize;
  return { start, end: n === total ? size : Math.min(size, start + chunkSize) };
}

/** simple-uploader's default identifier (spec §3): the size, a dash and the relative path without odd characters. */
export function chunkIdentifier(size: number, relativePath: string): string {
  return `${size}-${relativePath.replace(/[^0-9a-zA-Z_-]/gim, '')}`;
}

/** Exponentially smoothed speed (spec §9 "speed smoothing 0.1"), as simple-uploader's averageSpeed. */
export function smoothSpeed(previous: number, current: number, smoothing: number): number {
  return previous === 0 ? current : smoothing * current + (1 - smoothing) * previous;
}
