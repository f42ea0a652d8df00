import { CommonCodes, PREVIEWABLE_IMAGE_EXTENSIONS, FileCodes } from '@hpc/contracts';
import { AppError, acquireLockWaiting } from '@hpc/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import { sendFile } from '../../http/file-send';
import { EfileText } from '../../messages';

const NOT_TEXT = new Set([
  ...PREVIEWABLE_IMAGE_EXTENSIONS,
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  'zst',
  '7z',
  'rar',
  'tar',
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'exe',
  'so',
  'o',
  'a',
  'bin',
  'dll',
  'class',
  'jar',
  'pyc',
  'mp3',
  'mp4',
  'avi',
  'mkv',
  'mov',
  'iso',
  'img',
  'sif',
  'h5',
  'hdf5',
  'nc',
  'npy',
  'npz',
  'pt',
  'pth',
  'ckpt',
  'safetensors',
  'onnx',
]);
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
};
// An inline preview served from the portal's origin must not run script (an SVG can): sandbox it.
const SANDBOX_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

const extOf = (name: string) =>
  name.lastIndexOf('.') > 0 ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';

/** How long a save may hold its file's lock (renewed while held: a slow fsync keeps it). */
const SAVE_LOCK_MS = 30_000;
/** How long a save waits for another save of the same file to end. */
const SAVE_WAIT_MS = 15_000;

/** Text preview and edit (bounded by EFILE_PREVIEW_MAX_BYTES), raw image preview under a sandbox CSP. */
export function previewService(deps: EfileDeps) {
  const { userfs, config } = deps;

  /**
   * Saves of one file, one at a time across every instance of the cluster (a lock in the shared store, keyed by the
   * file's real host path, so two names of one file are one key). Two saves opened from the same version both
   * passed the mtime check before either wrote, and the second replaced the first unseen; under the lock the later
   * one finds the mtime the first left and is refused. A save waits for the other instead of failing: the other
   * may itself be refused, and then this one is the good one.
   */
  const saveLock = (host: string) =>
    acquireLockWaiting(deps.kv, `edit:${host}`, {
      ttlMs: SAVE_LOCK_MS,
      waitMs: SAVE_WAIT_MS,
      busy: () => new AppError(CommonCodes.unavailable, EfileText.fileBeingSaved),
    });

  async function check(user: EfileUser, p: string) {
    const r = await userfs.resolve(user, p);
    if (!r.stat?.isFile) throw new AppError(FileCodes.typeNotAllowed, EfileText.onlyFilesOpened);
    if (NOT_TEXT.has(extOf(r.name))) throw new AppError(FileCodes.typeNotAllowed);
    if (r.stat.size > config.EFILE_PREVIEW_MAX_BYTES) throw new AppError(FileCodes.previewTooLarge);
    const head = await userfs.readFile(user, r.host, Math.min(8192, r.stat.size));
    // A NUL byte or invalid UTF-8 in the first 8 KiB: binary (a cut multi-byte tail is tolerated).
    if (head.includes(0) || !isUtf8Prefix(head))
      throw new AppError(FileCodes.typeNotAllowed, EfileText.notUtf8Text);
    return {
      r,
      data: { path: r.clusterPath, size: r.stat.size, mtime: Math.round(r.stat.mtimeMs), encoding: 'utf-8' },
    };
  }

  return {
    check: async (user: EfileUser, p: string) => (await check(user, p)).data,
    async read(user: EfileUser, p: string) {
      const { r, data } = await check(user, p);
      // Bounded by the size checked against the preview limit: a file that grew since is cut there.
      const content = textOf(await userfs.readFile(user, r.host, data.size));
      return { path: data.path, content, size: data.size, mtime: data.mtime };
    },
    async edit(user: EfileUser, p: string, content: string, expectedMtime?: number) {
      if (Buffer.byteLength(content) > config.EFILE_PREVIEW_MAX_BYTES)
        throw new AppError(FileCodes.previewTooLarge);
      const r = await userfs.resolve(user, p);
      if (!r.stat?.isFile) throw new AppError(FileCodes.typeNotAllowed, EfileText.onlyFilesEdited);
      // A stale save is refused at once; the check that counts is the one under the lock, in writeFile.
      if (expectedMtime !== undefined && Math.round(r.stat.mtimeMs) !== expectedMtime) {
        throw new AppError(FileCodes.abnormalFile, EfileText.changedSinceOpened);
      }
      const lock = await saveLock(r.host);
      try {
        return await userfs.writeFile(user, p, content, expectedMtime);
      } finally {
        await lock.release();
      }
    },
    async raw(req: FastifyRequest, reply: FastifyReply, user: EfileUser, p: string) {
      const r = await userfs.resolve(user, p);
      const type = IMAGE_TYPES[extOf(r.name)];
      const file = await userfs.openRead(user, r.host);
      if (!type) return sendFile(req, reply, file, r.name, { disposition: 'attachment' });
      return sendFile(req, reply, file, r.name, {
        disposition: 'inline',
        contentType: type,
        headers: { 'content-security-policy': SANDBOX_CSP, 'cross-origin-resource-policy': 'same-origin' },
      });
    },
  };
}

/**
 * Control characters a text may hold in number (beyond tab, line ends and form feed): escape sequences of coloured
 * logs, a few stray bytes. A file of them is no text to show: each travels as `\u0001` in the answer, six times its
 * size, and 20 previews of 5 MiB of them held the event loop for seconds (found from outside, 2026-12-01).
 */
const MAX_CONTROL_SHARE = 0.01;

/** The whole file as text: UTF-8 throughout (the head's check saw 8 KiB only), not mostly control characters. */
function textOf(buf: Buffer): string {
  let controls = 0;
  for (const b of buf)
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) || b === 0x7f) controls++;
  if (buf.includes(0) || controls > Math.max(64, buf.length * MAX_CONTROL_SHARE))
    throw new AppError(FileCodes.typeNotAllowed, EfileText.notPlainText);
  // A file that grew since its size was read may be cut inside a character.
  const text = decodeUtf8(buf, true);
  if (text === null) throw new AppError(FileCodes.typeNotAllowed, EfileText.notUtf8Text);
  return text;
}

/** `buf` as UTF-8, or null when it is not; `cutTail`: up to 3 bytes of a character cut at the end are dropped. */
function decodeUtf8(buf: Buffer, cutTail: boolean): string | null {
  for (let cut = 0; cut < (cutTail ? 4 : 1) && cut <= buf.length; cut++) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, buf.length - cut));
    } catch {
      /* without one more byte */
    }
  }
  return null;
}

/** The 8 KiB head is UTF-8 (a character cut by the window tolerated). */
const isUtf8Prefix = (buf: Buffer): boolean => decodeUtf8(buf, buf.length >= 8192) !== null;
export type PreviewService = ReturnType<typeof previewService>;
