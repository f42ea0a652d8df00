import type { Locale } from '@hpc/contracts';
import { local, StorageKeys } from '../utils/storage';

export type Language = Locale;
export const LANGUAGES: readonly Language[] = ['zh-CN', 'en-US'];
/** Chinese is the product's default (spec §1). */
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

export const isLanguage = (v: unknown): v is Language => LANGUAGES.includes(v as Language);

export function storedLanguage(): Language {
  const v = local.get(StorageKeys.language);
  return isLanguage(v) ? v : DEFAULT_LANGUAGE;
}

/** Chooses the text of the current language from a zh/en pair; English falls back to Chinese when missing. */
export function pick(lang: string, zh: string, en: string): string {
  return lang === 'en-US' ? en || zh : zh || en;
}

/**
 * Sort order of labels in the filter panel: alphabetical in English, pinyin order in Chinese (spec §2
 * "available labels sorted alphabetically (English) or in Chinese ordering").
 */
export function collatorFor(lang: string): Intl.Collator {
  return lang === 'en-US'
    ? new Intl.Collator('en', { sensitivity: 'base', numeric: true })
    : new Intl.Collator('zh-CN-u-co-pinyin', { numeric: true });
}
