import { Card, Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../../../shared/preferences/preferences';
import { PRIMARY, THEME_NAMES } from '../../../shared/preferences/themes';
import { LANGUAGES } from '../../../shared/i18n/languages';

/** Language and theme; saved for the user on the server by <PreferencesSync> (also when changed in the header). */
export function PreferencesCard() {
  const { t } = useTranslation();
  const { language, setLanguage, theme, setTheme } = usePreferences();
  return (
    <Card title={t('user-centre.preferences.title')} variant="borderless">
      <Form layout="vertical">
        <Form.Item label={t('user-centre.preferences.language')}>
          <Radio.Group
            value={language}
            onChange={(e) => setLanguage(e.target.value as (typeof LANGUAGES)[number])}
            options={LANGUAGES.map((l) => ({ value: l, label: t(`common.language.${l}`) }))}
            optionType="button"
          />
        </Form.Item>
        <Form.Item label={t('user-centre.preferences.theme')} extra={t('user-centre.preferences.kept')}>
          <Radio.Group
            value={theme}
            onChange={(e) => setTheme(e.target.value as (typeof THEME_NAMES)[number])}
            optionType="button"
            options={THEME_NAMES.map((name) => ({
              value: name,
              label: (
                <span className="hpc-uc-theme">
                  <span className="hpc-swatch" style={{ background: PRIMARY[name] }} />
                  {t(`common.theme.${name}`)}
                </span>
              ),
            }))}
          />
        </Form.Item>
      </Form>
    </Card>
  );
}
