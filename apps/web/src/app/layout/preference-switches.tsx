import { BgColorsOutlined, CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { MENU_LANGUAGES, type Language } from '../../shared/i18n/languages';
import { usePreferences } from '../preferences';
import { PRIMARY, THEME_NAMES } from '../theme/themes';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { language, setLanguage } = usePreferences();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: MENU_LANGUAGES.map((l) => ({ key: l, label: t(`common.language.${l}`) })),
        onClick: ({ key }) => setLanguage(key as Language),
      }}
    >
      <Button
        type="text"
        className="hpc-header-button"
        icon={<GlobalOutlined />}
        // The visible language name is part of the accessible name (WCAG 2.5.3 "label in name").
        aria-label={`${t('common.language.switch')}${t('common.colon')}${t(`common.language.${language}`)}`}
      >
        {t(`common.language.${language}`)}
      </Button>
    </Dropdown>
  );
}

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { theme, setTheme } = usePreferences();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: THEME_NAMES.map((name) => ({
          key: name,
          icon: <span className="hpc-swatch" style={{ background: PRIMARY[name] }} />,
          label: (
            <span className="hpc-theme-item">
              {t(`common.theme.${name}`)}
              {name === theme && <CheckOutlined />}
            </span>
          ),
        })),
        onClick: ({ key }) => setTheme(key as (typeof THEME_NAMES)[number]),
      }}
    >
      <Button
        type="text"
        className="hpc-header-button"
        icon={<BgColorsOutlined />}
        aria-label={t('common.theme.switch')}
        title={t('common.theme.switch')}
      />
    </Dropdown>
  );
}
