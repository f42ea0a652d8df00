import type { TFunction } from 'i18next';
import { DIRECT_MESSAGE_CODES } from '@hpc/contracts';
import { isApiError, type ApiError } from '@hpc/api-client';
import i18n from '../i18n/i18n';
import { sameLanguage } from '../i18n/languages';

/**
 * Whether the server wrote the message in the user's language (it says so in `Content-Language`; the servers
 * localise the registry's texts for the `Accept-Language` the web sends). A message in another language, or in
 * none declared, is not shown: the catalogue's text of the code is.
 */
const inUsersLanguage = (error: ApiError, lang: string) => !!error.msg && sameLanguage(error.lang, lang);

/**
 * The message a failed call shows (spec §8 "Handling"), or null for a cancelled call, which stays silent.
 * - 401/403 and the codes of `DIRECT_MESSAGE_CODES`: the server's message when it is in the user's language
 *   (issue 13 §1.3: Chinese users saw English), else the catalogue's `errors.<code>`;
 * - any other code: `errors.<code>` translated; a code the catalogue does not know falls back to the server's
 *   message, then to "unknown error";
 * - no envelope: 404 / 5xx / other status texts; timeout and network failures their own texts.
 */
export function errorMessage(error: unknown, t: TFunction, lang: string = i18n.language): string | null {
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
    case 'api': {
      const direct =
        error.status === 401 || error.status === 403 || DIRECT_MESSAGE_CODES.includes(error.code);
      if (direct && inUsersLanguage(error, lang)) return error.msg;
      const fallback = error.status === 401 || error.status === 403 ? t(`errors.${error.status}`) : undefined;
      return t(`errors.${error.code}`, {
        defaultValue: fallback ?? (error.msg || t('errors.unknown')),
      });
    }
  }
}
