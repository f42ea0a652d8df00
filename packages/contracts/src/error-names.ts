import type { ErrorCode } from './errors';

/**
 * The codes of the registry by name, so that code reads `throw new AppError(FileCodes.notFound)` and
 * `e.code === FileCodes.sameNameDir` instead of bare strings. Grouped by who raises them; a code may appear in two
 * groups where two domains use it (1509 is both a file's and a share link's expiry). The wire still carries the
 * registry's string, so clients and servers of other versions agree.
 */
export const CommonCodes = {
  unknown: '0001',
  unavailable: '1001',
  remoteCall: '1002',
  incompleteParams: '1003',
  invalidInput: '1004',
  noChange: '1005',
  badVerificationCode: '1006',
  userFrozen: '1007',
  noClusterPermission: '1008',
  noApiPrivilege: '1009',
  verificationFailed: '1010',
  tooLarge: '1011',
  interrupted: '1012',
  remoteService: '1013',
  noUserPermission: '1017',
  noAccountPermission: '1018',
  illegalParams: '1033',
  authServer: '1404',
  tokenWithoutUser: '1406',
  clusterUserMissing: '601009',
} as const satisfies Record<string, ErrorCode>;

export const FileCodes = {
  notFound: '1020',
  sameNameFile: '1021',
  notAFolder: '1022',
  sameNameDir: '1023',
  dirNotFound: '1024',
  specialChars: '1027',
  abnormalFile: '1028',
  specialCharsInPath: '1029',
  permissionDenied: '1030',
  renameFailed: '1031',
  noSpace: '1501',
  notEmpty: '1502',
  previewTooLarge: '1505',
  typeNotAllowed: '1506',
  sameSourceTarget: '1507',
  downloadLimit: '1508',
  expired: '1509',
  operationLimit: 'OPERATION_LIMIT',
} as const satisfies Record<string, ErrorCode>;

export const ShareCodes = {
  sameNameInShare: '1025',
  wrongCode: '1026',
  expired: '1509',
  closed: 'LINK_CLOSED',
} as const satisfies Record<string, ErrorCode>;

export const PortalCodes = {
  unauthorized: '401',
  forbidden: '403',
  notFound: '404',
  tooManyRequests: '429',
  serverError: '500',
  accountDisabled: '612007',
  clientNotInstalled: '631013',
  loginFailed: 'LOGIN_FAILED',
  loginThrottled: 'LOGIN_THROTTLED',
  csrf: 'CSRF',
  requestTime: 'REQUEST_TIME',
} as const satisfies Record<string, ErrorCode>;

export const JobCodes = {
  userMode: 'JOB_USER_MODE',
  notFound: 'JOB_NOT_FOUND',
  scriptNotText: 'JOB_SCRIPT_TEXT',
  schedulerDown: 'JOB_SCHEDULER_DOWN',
  refused: 'JOB_REFUSED',
  partition: 'JOB_PARTITION',
  timeLimit: 'JOB_TIME_LIMIT',
  gres: 'JOB_GRES',
  account: 'JOB_ACCOUNT',
  qos: 'JOB_QOS',
  resources: 'JOB_RESOURCES',
  state: 'JOB_STATE',
} as const satisfies Record<string, ErrorCode>;

export const EshellCodes = {
  node: 'ESHELL_NODE',
  sessionLimit: 'ESHELL_SESSION_LIMIT',
  noSession: 'ESHELL_NO_SESSION',
  ticket: 'ESHELL_TICKET',
} as const satisfies Record<string, ErrorCode>;
