import type { webcrypto } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Limits, REQUEST_TIME_HEADER, REQUEST_TIME_PHRASE, PortalCodes } from '@hpc/contracts';
import { AppError } from '../app-error';
import { ServerKitText } from '../messages';

/**
 * Server side of the request-time header of spec §7 (the browser's encoder is packages/api-client/src/request-time.ts;
 * the format is documented beside REQUEST_TIME_HEADER in contracts). It is a clock check, not an authentication: the
 * phrase is public, so anyone can mint a valid header; security rests on the session and the cluster tokens.
 */

const IV_BYTES = 12;
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();

function keyFor(phrase: string): Promise<webcrypto.CryptoKey> {
  let key = keys.get(phrase);
  if (!key) {
    key = globalThis.crypto.subtle
      .digest('SHA-256', new TextEncoder().encode(phrase))
      .then((raw) => globalThis.crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']));
    keys.set(phrase, key);
  }
  return key;
}

/** Decrypts a header value and returns the time it carries (ms since the epoch); throws AppError REQUEST_TIME. */
export async function decodeRequestTime(value: string, phrase = REQUEST_TIME_PHRASE): Promise<number> {
  const bad = () => new AppError(PortalCodes.requestTime, ServerKitText.malformedRequestTime);
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length <= IV_BYTES + 16 || bytes.length > 512) throw bad();
  let plain: string;
  try {
    const clear = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES) },
      await keyFor(phrase),
      bytes.subarray(IV_BYTES),
    );
    plain = new TextDecoder().decode(clear);
  } catch {
    throw bad();
  }
  const prefix = `${phrase}|`;
  const time = Number(plain.slice(prefix.length));
  if (!plain.startsWith(prefix) || !Number.isSafeInteger(time)) throw bad();
  return time;
}

export interface RequestTimeCheckOptions {
  /** Whether a request without the header is refused; a header that is present is always checked. */
  required(req: FastifyRequest): boolean;
  phrase?: string;
  skewMs?: number;
  now?: () => number;
}

/**
 * An `onRequest` hook: refuses (400, code REQUEST_TIME) a request whose header time is more than `skewMs`
 * (default `Limits.requestTimeSkewMs`, 5 minutes) away from the server clock, whose header is malformed, or that
 * lacks the header where `required(req)` says so.
 */
export function requestTimeCheck(opts: RequestTimeCheckOptions) {
  const skew = opts.skewMs ?? Limits.requestTimeSkewMs;
  const now = opts.now ?? Date.now;
  return async (req: FastifyRequest): Promise<void> => {
    const value = req.headers[REQUEST_TIME_HEADER];
    if (typeof value !== 'string' || value === '') {
      if (opts.required(req))
        throw new AppError(PortalCodes.requestTime, ServerKitText.missingHeader(REQUEST_TIME_HEADER));
      return;
    }
    const time = await decodeRequestTime(value, opts.phrase);
    if (Math.abs(now() - time) > skew) throw new AppError(PortalCodes.requestTime);
  };
}
