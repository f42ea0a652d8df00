import crypto from 'node:crypto';
import { PARTIAL_SUFFIX, tempName } from '../../fs/names';

/**
 * A session's id: the first 40 hex digits of the SHA-256 of its parts joined by NUL. The front doors hash what
 * names a session in their protocol (chunks: user, target, identifier; ranges: the same and the size), as they did
 * before the core, so rows and partials from before keep their ids.
 */
export const sessionId = (...parts: (string | number)[]): string =>
  crypto.createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 40);

/**
 * The hidden partial file of a session beside its target: `.<name>.<first 12 of id>.efile-part`. Both front doors
 * named their partials this way already, so a partial left from before the core is found by the same name.
 */
export const partialName = (name: string, id: string): string =>
  tempName(name, PARTIAL_SUFFIX, id.slice(0, 12));
