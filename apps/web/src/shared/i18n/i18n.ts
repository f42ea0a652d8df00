import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale as AntLocale } from 'antd/es/locale';
import type * as Bundle from './bundles/zh-CN';
import { DEFAULT_LANGUAGE, storedLanguage, type Language } from './languages';

/**
 * Each language (our catalogue and Ant Design's locale) is its own chunk, loaded when first needed: the first
 * load carries only the language in use, which keeps the list page under its 350 KB gzip budget.
 */
const loaders: Record<Language, () => Promise<typeof Bundle>> = {
  'zh-CN': () => import('./bundles/zh-CN'),
  'en-US': () => import('./bundles/en-US'),
  'en-XA': () => import('./bundles/en-XA'),
};

const antdLocales = new Map<Language, AntLocale>();

/** Loads a language's texts (once) so that switching to it renders complete at once. */
export async function loadLanguage(lng: Language): Promise<void> {
  if (antdLocales.has(lng)) return;
  const bundle = await loaders[lng]();
  i18n.addResourceBundle(lng, 'translation', bundle.translation, true, true);
  antdLocales.set(lng, bundle.antd);
}

/** Ant Design's locale of a language already loaded (the default language's until then). */
export function antdLocale(lng: Language): AntLocale | undefined {
  return antdLocales.get(lng) ?? antdLocales.get(DEFAULT_LANGUAGE);
}

/** Initialises i18next with the stored language (and Chinese, the fallback) loaded; call before rendering. */
export async function initI18n(): Promise<void> {
  const lng = storedLanguage();
  // Ask for the texts' chunks before anything else is requested (main.tsx then starts the page's code and data):
  // the first render waits for them, and the browser opens only a few connections per server at a time.
  for (const l of new Set([lng, DEFAULT_LANGUAGE])) void loaders[l]().catch(() => undefined);
  await i18n.use(initReactI18next).init({
    resources: {},
    lng,
    fallbackLng: DEFAULT_LANGUAGE,
    interpolation: { escapeValue: false }, // React escapes already
    returnNull: false,
    showSupportNotice: false, // no vendor banner in the users' consoles
  });
  await Promise.all([loadLanguage(lng), loadLanguage(DEFAULT_LANGUAGE)]);
}

export default i18n;
