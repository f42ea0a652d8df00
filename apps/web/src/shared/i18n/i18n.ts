import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, storedLanguage } from './languages';

type Catalogue = Record<string, unknown>;

/**
 * Every `locales/<lng>/<feature>.json` becomes the top-level key `<feature>` of one catalogue, so keys read
 * `images.list.placeholder`. Both languages are bundled: they are small, and switching needs no request.
 */
function collect(files: Record<string, { default: Catalogue }>): Catalogue {
  const out: Catalogue = {};
  for (const [file, mod] of Object.entries(files)) {
    const feature = /\/([\w-]+)\.json$/.exec(file)?.[1];
    if (feature) out[feature] = mod.default;
  }
  return out;
}

const zh = collect(import.meta.glob<{ default: Catalogue }>('../../locales/zh-CN/*.json', { eager: true }));
const en = collect(import.meta.glob<{ default: Catalogue }>('../../locales/en-US/*.json', { eager: true }));

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zh }, 'en-US': { translation: en } },
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false }, // React escapes already
  returnNull: false,
});

export default i18n;
