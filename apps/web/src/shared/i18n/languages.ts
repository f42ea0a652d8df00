import type { Locale } from '@hpc/contracts';
import { local, StorageKeys } from '../utils/storage';

/**
 * The pseudo-locale (see pseudo.ts): accented, padded English for finding hard-coded and clipped texts. Offered in
 * the language menu in development only; any build takes it from the stored preference (`hpc.language`), which is
 * how the browser tests choose it.
 */
export const PSEUDO_LANGUAGE = 'en-XA';

export type Language = Locale | typeof PSEUDO_LANGUAGE;
/** The product's languages. */
export const LANGUAGES: readonly Locale[] = ['zh-CN', 'en-US'];
/** Chinese is the product's default (spec §1). */
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

export const isLanguage = (v: unknown): v is Language =>
  LANGUAGES.includes(v as Locale) || v === PSEUDO_LANGUAGE;

/** The languages of the language menu: the pseudo-locale too while developing. */
export const MENU_LANGUAGES: readonly Language[] = import.meta.env.DEV
  ? [...LANGUAGES, PSEUDO_LANGUAGE]
  : LANGUAGES;

/** The language to ask the servers for: the pseudo-locale is English underneath. */
export const serverLocale = (lang: string | undefined): Locale =>
  lang?.startsWith('en') ? 'en-US' : 'zh-CN'; // before i18n is ready (tests), the default, Chinese

export function storedLanguage(): Language {
  const v = local.get(StorageKeys.language);
  return isLanguage(v) ? v : DEFAULT_LANGUAGE;
}

/**
 * Chooses the text of the current language from a zh/en pair; English falls back to Chinese when missing. Data
 * is not pseudo-localised: the pseudo-locale shows the English.
 */
export function pick(lang: string | undefined, zh: string, en: string): string {
  return serverLocale(lang) === 'en-US' ? en || zh : zh || en;
}

/**
 * Sort order of labels in the filter panel: alphabetical in English, pinyin order in Chinese (spec §2
 * "available labels sorted alphabetically (English) or in Chinese ordering").
 */
export function collatorFor(lang: string | undefined): Intl.Collator {
  return serverLocale(lang) === 'en-US'
    ? new Intl.Collator('en', { sensitivity: 'base', numeric: true })
    : new Intl.Collator('zh-CN-u-co-pinyin', { numeric: true });
}
