import type { ServerText } from '@hpc/contracts';

/**
 * A refusal with a result code (spec §8): the client's own is a `FastransText` pair and keeps its Chinese (`zh`), for
 * a page in Chinese; one relayed from the portal or efile is their words, a plain string (`zh` null). The client's
 * `ClientError` and the runner's `RemoteError` are both.
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
