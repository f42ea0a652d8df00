import { hash, verify } from '@node-rs/argon2';

/**
 * Password hashing: argon2id (the library's default algorithm; a test asserts the `$argon2id$` prefix) with the
 * OWASP minimum of 19 MiB memory, 2 passes, 1 lane: about 20-40 ms per check on a server core.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const PASSWORD_MIN_LENGTH = 8;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

// Verified when the user does not exist or has no password, so that the answer takes as long either way and the
// timing does not tell which user names exist.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
