import { CommonCodes, PortalCodes, Refusal } from '@hpc/contracts';

/**
 * An answer of efile with a code other than "0" (its words, a plain string), or the client's own refusal of a
 * transfer (a `FastransText` pair, its Chinese kept in `zh`). `auth` for refused tokens (the task waits for a new
 * login).
 */
export class RemoteError extends Refusal {
  get auth() {
    return this.code === CommonCodes.tokenWithoutUser || this.code === PortalCodes.unauthorized;
  }
}
