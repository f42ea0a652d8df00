import errors from './errors.json';

/**
 * The error registry of spec §8 (data: `errors.json`). The server throws `AppError(code)`; the envelope carries the
 * code and the English message of the registry as a fallback; the web maps each code to a translated message
 * (`errors.<code>` in its catalogue). `status` is the HTTP status sent with it (DESIGN.md §6). After the spec's
 * codes come the portal-side codes the spec names by meaning only (§8 "Other messages"), the job service's (issue
 * 22: Slurm's own refusals keep its reason in the answer's data.reason) and the shell service's (issue 26).
 */
export const ErrorCodes = errors satisfies Record<string, { status: number; en: string }>;

export type ErrorCode = keyof typeof ErrorCodes;

/** Codes whose server message the web shows as it is (spec §8 "Handling"); all others are translated. */
export const DIRECT_MESSAGE_CODES: readonly string[] = [
  '1001',
  '1003',
  '1004',
  '1010',
  '1011',
  '1020',
  '1030',
  '1505',
  '1506',
  '601009',
];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ErrorCodes, code);
