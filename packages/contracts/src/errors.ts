/**
 * The error registry of spec §8. The server throws `AppError(code)`; the envelope carries the code and the English
 * message below as a fallback; the web maps each code to a translated message (`errors.<code>` in its catalogue).
 * `status` is the HTTP status sent with it (DESIGN.md §6).
 */
export const ErrorCodes = {
  '0001': { status: 500, en: 'Unknown error' },
  '1001': { status: 503, en: 'Operation failed, the service is unavailable, please try again later' },
  '1002': { status: 502, en: 'Error calling a remote service' },
  '1003': { status: 400, en: 'Parameter exception: incomplete parameters' },
  '1004': { status: 400, en: 'Invalid input' },
  '1005': { status: 400, en: 'No change' },
  '1006': { status: 400, en: 'Incorrect or invalid verification code' },
  '1007': { status: 403, en: 'User frozen: the account is deactivated' },
  '1008': { status: 403, en: 'No permission for this cluster' },
  '1009': { status: 403, en: 'No privilege for this API' },
  '1010': { status: 400, en: 'File verification failed' },
  '1011': { status: 413, en: 'File too large' },
  '1012': { status: 499, en: 'Connection interrupted' },
  '1013': { status: 502, en: 'Error calling a remote service' },
  '1017': { status: 403, en: 'No permission for this user' },
  '1018': { status: 403, en: 'No permission for this account' },
  '1020': { status: 404, en: 'File does not exist' },
  '1021': { status: 409, en: 'A file with the same name exists' },
  '1022': { status: 400, en: 'The target is not a folder' },
  '1023': { status: 409, en: 'A directory with the same name exists' },
  '1024': { status: 404, en: 'Directory does not exist' },
  '1025': {
    status: 409,
    en: 'The shared directory already has a file with the same name, rename it and share again',
  },
  '1026': { status: 403, en: 'Wrong extraction code' },
  '1027': { status: 400, en: 'The name contains special characters' },
  '1028': { status: 400, en: 'Operation failed: an abnormal file is included' },
  '1029': { status: 400, en: 'The name or parent path has special characters' },
  '1030': { status: 403, en: 'Insufficient permission' },
  '1031': { status: 500, en: 'Rename failed' },
  '1033': { status: 400, en: 'Illegal characters in parameters' },
  '1404': { status: 502, en: 'Authentication server connection abnormal' },
  '1406': { status: 401, en: 'Server token authentication failed, no related user' },
  '1501': { status: 507, en: 'Not enough space' },
  '1502': { status: 409, en: 'Folder not empty' },
  '1505': { status: 413, en: 'The file is too large to preview' },
  '1506': { status: 415, en: 'This file type is not allowed to be opened' },
  '1507': { status: 400, en: 'Source and target are identical' },
  '1508': { status: 400, en: 'The file count exceeds the download limit' },
  '1509': { status: 410, en: 'The link has expired' },
  '601009': { status: 404, en: 'The cluster user does not exist' },
  // Portal-side codes that the spec names by meaning only (§8 "Other messages"); kept in the same registry.
  '401': { status: 401, en: 'Not logged in or the session has expired' },
  '403': { status: 403, en: 'Forbidden' },
  '404': { status: 404, en: 'The page or interface does not exist!' },
  '429': { status: 429, en: 'Too many attempts, please try again later' },
  '500': { status: 500, en: 'Server internal error.' },
  '612007': { status: 403, en: 'The account is disabled' },
  '631013': { status: 400, en: 'The quick upload client is not installed' },
  LINK_CLOSED: { status: 410, en: 'The link is closed, please contact the sharer' },
  OPERATION_LIMIT: { status: 429, en: 'The copy or move process limit is reached, please retry later' },
  LOGIN_FAILED: { status: 401, en: 'Wrong user name or password' },
  LOGIN_THROTTLED: { status: 429, en: 'Too many failed logins, please try again later' },
  CSRF: { status: 403, en: 'The request was refused: missing or invalid CSRF token' },
  REQUEST_TIME: { status: 400, en: 'The request time is too far from the server time, check your clock' },
  // The job service (issue 22): Slurm's own refusals keep its reason in the answer's data.reason.
  JOB_USER_MODE: {
    status: 501,
    en: 'Jobs need the per-user mode: this job service runs every user as one account',
  },
  JOB_NOT_FOUND: { status: 404, en: 'The job does not exist or is not yours' },
  JOB_SCRIPT_TEXT: { status: 400, en: 'The job script must be text' },
  JOB_SCHEDULER_DOWN: { status: 503, en: 'The scheduler is not answering, please try again later' },
  JOB_REFUSED: { status: 400, en: 'The scheduler refused the job' },
  JOB_PARTITION: { status: 400, en: 'The scheduler refused the job: invalid partition' },
  JOB_TIME_LIMIT: {
    status: 400,
    en: "The scheduler refused the job: the time limit exceeds the partition's limit",
  },
  JOB_GRES: { status: 400, en: 'The scheduler refused the job: invalid GPU or generic resource request' },
  JOB_ACCOUNT: {
    status: 400,
    en: 'The scheduler refused the job: invalid account or account and partition combination',
  },
  JOB_QOS: { status: 400, en: 'The scheduler refused the job: invalid QOS' },
  JOB_RESOURCES: {
    status: 400,
    en: 'The scheduler refused the job: more resources requested than the partition has',
  },
  JOB_STATE: { status: 409, en: 'The job is not in a state that allows this' },
  // The shell service (issue 26).
  ESHELL_NODE: { status: 400, en: 'This login node is not one of the cluster' },
  ESHELL_SESSION_LIMIT: {
    status: 429,
    en: 'Too many open shell sessions: close one and try again',
  },
  ESHELL_NO_SESSION: { status: 404, en: 'The shell session has ended' },
  ESHELL_TICKET: { status: 401, en: 'The shell ticket is invalid or used' },
} as const satisfies Record<string, { status: number; en: string }>;

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
