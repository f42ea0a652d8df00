import { ErrorCodes, Refusal, type ErrorCode, type ServerText } from '@hpc/contracts';

/**
 * A failure the client should see: thrown anywhere in a service, turned into the `{ code, msg, data }` envelope
 * with the registry's HTTP status by the error plugin. `msg` defaults to the registry's text (both languages);
 * a message for the occasion is a {@link ServerText} from the package's catalogue (`src/messages.ts`), so that it
 * is answered in the request's language; a plain string (a message relayed from elsewhere) is English only. Lint
 * refuses a string or template literal here.
 */
export class AppError extends Refusal {
  declare readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, msg?: string | ServerText, options: { status?: number; data?: unknown } = {}) {
    super(code, msg ?? ErrorCodes[code].en, options.data ?? null);
    this.status = options.status ?? ErrorCodes[code].status;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
