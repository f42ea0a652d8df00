/** Business constants of spec §9, shared by servers and web so that both sides enforce the same numbers. */
export const Limits = {
  pageSizes: [10, 20, 50, 100, 500] as const,
  defaultPageSize: 20,
  /** The largest page a catalogue list answers: the biggest of `pageSizes`, as in E-File (spec §9). */
  maxCatalogPageSize: 500,
  labelsPerCard: 8,
  nameMaxLength: 70,
  folderFileLimit: 1000,
  downloadPathLimit: 2000,
  chunkSize: 1024 * 1024,
  simultaneousUploads: 3,
  progressIntervalMs: 500,
  speedSmoothing: 0.1,
  maxChunkRetries: 0,
  balanceThreshold: 100,
  expiryReminderDays: 7,
  alertBarHeight: 46,
  defaultShareMaxValidDays: 30,
  requestTimeSkewMs: 5 * 60 * 1000,
  fastTransferPorts: [9527, 19527, 29527, 39527, 49527, 59527] as const,
  timeouts: { list: 180_000, remove: 3_000_000, copyMove: 3_000_000, share: 60_000, default: 30_000 },
} as const;

/**
 * The characters no name the portal makes or shows plainly may hold, as a regular-expression class: C0 and C1
 * controls, and the direction marks and overrides (U+061C, U+200E/F, U+202A-E, U+2066-9) that make one name read as
 * another: `invoice\u202Efdp.sh` shows as "invoicehs.pdf" (found from outside, 2026-12-01, in E-File names).
 */
export const UNSHOWABLE_CLASS =
  '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** A string holding one of `UNSHOWABLE_CLASS`. */
export const UNSHOWABLE = new RegExp(`[${UNSHOWABLE_CLASS}]`);

export const PREVIEWABLE_IMAGE_EXTENSIONS = [
  'bmp',
  'jpg',
  'png',
  'jpeg',
  'tif',
  'gif',
  'pcx',
  'tga',
  'exif',
  'fpx',
  'svg',
  'psd',
  'cdr',
  'pcd',
  'dxf',
  'ufo',
  'eps',
  'ai',
  'raw',
  'wmf',
  'webp',
] as const;
