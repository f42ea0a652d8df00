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

/**
 * Whether two language tags name one language (their primary subtags: `zh-CN` and `zh`; `en-US` and the
 * pseudo-locale). A missing tag (a server that did not say) is no language.
 */
export const sameLanguage = (a: string | null | undefined, b: string | null | undefined): boolean =>
  !!a && !!b && a.toLowerCase().split('-')[0] === b.toLowerCase().split('-')[0];

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
 * The pinyin collation of ICU (Node and Chromium alike) puts every Han text before every Latin one ("飞桨, 昇思,
 * JAX, PyTorch"), so it cannot be the order by itself. The first character of each initial letter's run in that
 * collation, from which a Han character's pinyin initial is found (issue 25 §3.6).
 */
const PINYIN_INITIALS = [...'阿八嚓哒妸发旮哈讥咔垃痳拏噢妑七呥扨它穵夕丫帀'];
const INITIAL_LETTERS = 'abcdefghjklmnopqrstwxyz';
const HAN = /\p{Script=Han}/u;

/**
 * The one order of labels (spec §2 "sorted alphabetically (English) or in Chinese ordering"), in every list that
 * shows labels, Latin and Han alike: a Han character counts as its pinyin initial among the Latin letters
 * (飞桨 as "fj": 飞桨 < JAX < PyTorch < 昇思), ties in pinyin order, numbers by value.
 */
export function labelCompare(lang: string | undefined): (a: string, b: string) => number {
  const locale = serverLocale(lang);
  let compare = compares.get(locale);
  if (!compare) compares.set(locale, (compare = makeLabelCompare(locale)));
  return compare;
}

/** One comparator per language for the page's life: collators are costly to make, and every card sorts. */
const compares = new Map<string, (a: string, b: string) => number>();

function makeLabelCompare(locale: string): (a: string, b: string) => number {
  const pinyin = new Intl.Collator('zh-CN-u-co-pinyin', { numeric: true });
  const latin = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  const initial = (ch: string) => {
    let letter = 'a';
    for (let i = 0; i < PINYIN_INITIALS.length && pinyin.compare(ch, PINYIN_INITIALS[i]!) >= 0; i++) {
      letter = INITIAL_LETTERS[i]!;
    }
    return letter;
  };
  const keys = new Map<string, string>();
  const key = (text: string) => {
    let k = keys.get(text);
    if (k === undefined) {
      k = [...text].map((ch) => (HAN.test(ch) ? initial(ch) : ch)).join('');
      keys.set(text, k);
    }
    return k;
  };
  // Chinese ties (same initials) go by full pinyin; English by the alphabet first.
  const tie = locale === 'en-US' ? latin : pinyin;
  return (a, b) => latin.compare(key(a), key(b)) || tie.compare(a, b) || pinyin.compare(a, b);
}
