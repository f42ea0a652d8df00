import { ErrorCodes, type ErrorCode } from '@hpc/contracts';

/**
 * A failure the client should see: thrown anywhere in a service, turned into the `{ code, msg, data }` envelope
 * with the registry's HTTP status by the error plugin. `msg` defaults to the registry's English text.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly data: unknown;

  constructor(code: ErrorCode, msg?: string, options: { status?: number; data?: unknown } = {}) {
    super(msg ?? ErrorCodes[code].en);
    this.code = code;
    this.status = options.status ?? ErrorCodes[code].status;
    this.data = options.data ?? null;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
