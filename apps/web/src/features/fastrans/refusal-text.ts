import type { TFunction } from 'i18next';
import i18n from '../../shared/i18n/i18n';
import { sameLanguage } from '../../shared/i18n/languages';
import type { FastransError } from './fastrans-client';

/**
 * What a refusal of the client or of the relay says in the page's language: the Chinese the client or the portal
 * wrote (`zh`) for a Chinese page; a message with no Chinese (efile's words relayed by the client, the page's own
 * "connection closed") by its code from the catalogue (`fastrans.codes`, then `errors`), the English as the last
 * resort. An English page shows the English as it came.
 */
export function refusalText(e: FastransError, t: TFunction, lang: string = i18n.language): string {
  if (!sameLanguage(lang, 'zh-CN')) return e.message;
  if (e.zh) return e.zh;
  return t(`fastrans.codes.${e.code}`, {
    defaultValue: t(`errors.${e.code}`, { defaultValue: e.message }),
  });
}

/** The engine's own words for a file that failed, each with its text in the catalogue (`fastrans.taskError`). */
const TASK_ERRORS: Record<string, string> = {
  cancelled: 'cancelled',
  'checksum differs': 'checksum',
  'no answer': 'noAnswer',
};

/**
 * A task's error (the first failed file's, as the client records it) in the page's language: the engine's own
 * words from the catalogue; a server's refusal recorded as "<code> <message>" by its code's text on a Chinese page;
 * anything else (a network failure's system text) as it came, a diagnostic.
 */
export function taskErrorText(error: string, t: TFunction, lang: string = i18n.language): string {
  const own = TASK_ERRORS[error];
  if (own) return t(`fastrans.taskError.${own}`);
  const coded = /^(\d{3,6}) (.*)$/s.exec(error);
  if (!coded || !sameLanguage(lang, 'zh-CN')) return error;
  return `${coded[1]} ${t(`errors.${coded[1]}`, { defaultValue: coded[2] })}`;
}
