import { ApiClient, isApiError, shareApi } from '@hpc/api-client';
import { CommonCodes, FileCodes, PortalCodes, ShareCodes } from '@hpc/contracts';
import { languageHeaders } from '../../shared/api/request-options';

/**
 * The typed anonymous calls of a share link (`@hpc/api-client`), to an efile instance of the cluster found by the
 * recipient's own service discovery (`usePublicEfile`); the default is the all-in-one mount point `/efile/<clusterId>`.
 */
export function createShareApi(clusterId: string, baseUrl = `/efile/${encodeURIComponent(clusterId)}`) {
  return shareApi(new ApiClient({ baseUrl, headers: languageHeaders }));
}
export type ShareApi = ReturnType<typeof createShareApi>;

/** The recipient failures that have a message of their own in the catalogue (`errors.<code>`). */
const RECIPIENT_CODES: readonly string[] = [
  ShareCodes.wrongCode,
  ShareCodes.expired,
  ShareCodes.closed,
  PortalCodes.tooManyRequests,
  FileCodes.notFound,
  FileCodes.dirNotFound,
];

/**
 * The recipient's message key for a failed call: wrong code, expired, closed and throttled each have their own
 * (translated even though some come with 403/410/429, which the shared mapping would show as the server's text).
 */
export function shareErrorKey(e: unknown): string {
  if (!isApiError(e)) return 'errors.unknown';
  if (e.kind === 'network') return 'errors.network';
  if (e.kind === 'timeout') return 'errors.timeout';
  if (e.code === CommonCodes.tokenWithoutUser) return 'share.tokenExpired';
  if (RECIPIENT_CODES.includes(e.code)) return `errors.${e.code}`;
  if (e.status === 429) return 'errors.429';
  if (e.kind === 'http' && e.status === 404) return 'share.notFound';
  return `errors.${e.code}`;
}
