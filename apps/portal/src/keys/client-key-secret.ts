import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The secret the per-user fast-transfer client keys are derived from (docs/FASTRANS.md "Security"): 32 random bytes
 * in `fastrans-client.secret` of the signing keys folder (mode 0600; the key files' pattern does not take it for a
 * signing key), made on first use. The folder is what scaled-out portals share, and the secret never rotates with
 * the signing keys: a client's key stays valid until the secret is removed (then every user downloads again).
 */
export const CLIENT_KEY_SECRET_FILE = 'fastrans-client.secret';

const read = (file: string): Buffer | null => {
  try {
    const b = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
    return b.length >= 32 ? b : null;
  } catch {
    return null;
  }
};

/** Reads the secret in `dir`, making it first when there is none (two instances at once end up with one). */
export function openClientKeySecret(dir: string): Buffer {
  const file = path.join(dir, CLIENT_KEY_SECRET_FILE);
  const found = read(file);
  if (found) return found;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${CLIENT_KEY_SECRET_FILE}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  fs.writeFileSync(tmp, crypto.randomBytes(32).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    // A link does not replace: the first instance's secret wins, the others read it.
    fs.linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  const made = read(file);
  if (!made) throw new Error(`${file} holds no secret`);
  return made;
}

/**
 * K_user = HMAC-SHA256(secret, "fastrans-client-key:" + userId [+ ":" + generation]): what the user's package carries.
 * Generation 0 (never revoked) keeps the form of the keys in packages downloaded before revocation existed.
 */
export const clientKeyOf = (secret: Buffer, userId: number | string, generation = 0): Buffer =>
  crypto
    .createHmac('sha256', secret)
    .update(`fastrans-client-key:${userId}${generation ? `:${generation}` : ''}`)
    .digest();

/** The client's proof of `sign`: base64url(HMAC-SHA256(key, sign)). */
export const clientProof = (key: Buffer, sign: string): string =>
  crypto.createHmac('sha256', key).update(sign).digest('base64url');

/** Whether `proof` is the proof of `sign` by `userId`'s key of `generation`, compared in constant time. */
export function verifyClientProof(
  secret: Buffer,
  userId: number | string,
  sign: string,
  proof: string,
  generation = 0,
): boolean {
  const want = Buffer.from(clientProof(clientKeyOf(secret, userId, generation), sign));
  const got = Buffer.from(proof);
  return got.length === want.length && crypto.timingSafeEqual(got, want);
}
