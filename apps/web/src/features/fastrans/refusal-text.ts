import type { TFunction } from 'i18next';
import i18n from '../../shared/i18n/i18n';
import type { FastransError } from './fastrans-client';

/**
 * What a refusal of the client or of the relay says in the page's language: the Chinese the client or the portal
 * wrote (`zh`) for a Chinese page; a message with no Chinese (efile's words relayed by the client, the page's own
 * "connection closed") by its code from the catalogue (`fastrans.codes`, then `errors`), the English as the last
 * resort. An English page shows the English as it came.
 */
export function refusalText(e: FastransError, t: TFunction, lang: string = i18n.language): string {
  if (!lang.toLowerCase().startsWith('zh')) return e.message;
  if (e.zh) return e.zh;
  return t(`fastrans.codes.${e.code}`, {
    defaultValue: t(`errors.${e.code}`, { defaultValue: e.message }),
  });
}
