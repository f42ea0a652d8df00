import type { ServerText } from './error-messages-zh';

/**
 * A refusal with a result code (spec §8), as every process throws it: a message written for the occasion is a
 * `ServerText` pair and keeps its Chinese (`zh`) for a reader of Chinese; one relayed from another process is that
 * process's words, a plain string (`zh` null). server-kit's `AppError`, the portal's answers to the fast-transfer
 * client (`WebError`) and the client's own refusals (`ClientError`, `RemoteError`) are all one.
 */
export class Refusal extends Error {
  readonly zh: string | null;
  constructor(
    readonly code: string,
    msg: string | ServerText,
    readonly data: unknown = null,
  ) {
    super(typeof msg === 'string' ? msg : msg.en);
    this.zh = typeof msg === 'string' ? null : msg.zh;
  }
}
