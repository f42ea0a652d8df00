import type { TFunction } from 'i18next';
import { DIRECT_MESSAGE_CODES } from '@hpc/contracts';
import { isApiError } from '@hpc/api-client';

/**
 * The message a failed call shows (spec §8 "Handling"), or null for a cancelled call, which stays silent.
 * - 401/403: the server's own message (the identity work redirects to login through the 401 hook);
 * - a code of `DIRECT_MESSAGE_CODES`: the server message as it is; any other code: `errors.<code>` translated,
 *   falling back to the server message;
 * - no envelope: 404 / 5xx / other status texts; timeout and network failures their own texts.
 */
export function errorMessage(error: unknown, t: TFunction): string | null {
  if (!isApiError(error)) return t('errors.unknown');
  switch (error.kind) {
    case 'cancelled':
      return null;
    case 'timeout':
      return t('errors.timeout');
    case 'network':
      return t('errors.network');
    case 'http':
      if (error.status === 404) return t('errors.404');
      if (error.status >= 500) return t('errors.500');
      if (error.status === 401 || error.status === 403) return t(`errors.${error.status}`);
      return t('errors.http', { status: error.status });
    case 'api':
      if (error.status === 401 || error.status === 403) {
        return error.msg || t(`errors.${error.status}`);
      }
      if (DIRECT_MESSAGE_CODES.includes(error.code) && error.msg) return error.msg;
      return t(`errors.${error.code}`, { defaultValue: error.msg || t('errors.unknown') });
  }
}
