import { useTranslation } from 'react-i18next';

/**
 * The translated tooltips of Ant Design's copy button ("copy", then "copied"), for `copyable={{ text, ...tips }}`:
 * its own are English whatever the page's language.
 */
export function useCopyTips(): { tooltips: [string, string] } {
  const { t } = useTranslation();
  return { tooltips: [t('common.copy'), t('common.copied')] };
}
