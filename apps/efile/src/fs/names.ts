import crypto from 'node:crypto';
import { Limits, CommonCodes, FileCodes, UNSHOWABLE_CLASS } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import { EfileText } from '../messages';

/** Suffix of unfinished uploads and temp files: `.<name>.<id>.efile-part`, hidden, beside the target. */
export const PARTIAL_SUFFIX = '.efile-part';
/** Suffix of temp copies and atomic writes: `.<name>.<id>.efile-tmp`. */
export const TEMP_SUFFIX = '.efile-tmp';

/** True for our own partial/temp files, which listings never show. */
export const isInternalName = (name: string): boolean =>
  name.startsWith('.') && (name.endsWith(PARTIAL_SUFFIX) || name.endsWith(TEMP_SUFFIX));

/** Random bytes fetched 4 KiB at a time: one call to the system's generator per 680 temp names, not one each. */
let pool = Buffer.alloc(0);
function randomId(): string {
  if (pool.length < 6) pool = crypto.randomBytes(4096);
  const id = pool.subarray(0, 6).toString('hex');
  pool = pool.subarray(6);
  return id;
}

/** A hidden sibling name for a temp file; keeps within the 255-byte limit for long (Chinese) names. */
export function tempName(name: string, suffix = TEMP_SUFFIX, id = randomId()): string {
  let base = name;
  while (Buffer.byteLength(base) > 200) base = base.slice(0, -1);
  return `.${base}.${id}${suffix}`;
}

const SPECIAL = new RegExp(`[${UNSHOWABLE_CLASS}/]`);

/**
 * Name rules of spec §5, enforced on every name the server creates (mkdir, touch, rename, upload paths, tar
 * entries): not all blanks, at most 70 characters, no "/", not "." or "..", and none of contracts' unshowable
 * characters (controls, and the direction overrides that made a script read as a PDF in a group folder).
 */
export function validateName(name: string): string {
  if (name.trim() === '') throw new AppError(CommonCodes.invalidInput, EfileText.nameBlank);
  if ([...name].length > Limits.nameMaxLength) {
    throw new AppError(CommonCodes.invalidInput, EfileText.nameTooLong(Limits.nameMaxLength));
  }
  if (SPECIAL.test(name) || name === '.' || name === '..') throw new AppError(FileCodes.specialChars);
  if (isInternalName(name)) throw new AppError(FileCodes.specialChars, EfileText.nameReserved);
  return name;
}

/** Validates a relative path (upload relativePath, tar entry) segment by segment; returns its segments. */
export function validateRelativePath(rel: string): string[] {
  const segs = rel.split('/').filter((s, i, a) => !(s === '' && (i === 0 || i === a.length - 1)));
  if (segs.length === 0) throw new AppError(CommonCodes.invalidInput, EfileText.emptyRelativePath);
  for (const s of segs) {
    if (s === '' || s === '.' || s === '..') throw new AppError(FileCodes.specialCharsInPath);
    try {
      validateName(s);
    } catch (e) {
      if (e instanceof AppError && e.code === FileCodes.specialChars)
        throw new AppError(FileCodes.specialCharsInPath);
      throw e;
    }
  }
  return segs;
}
