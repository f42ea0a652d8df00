import { Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePreferences } from '../preferences';
import { appRoutes } from '../routes';
import { useSection } from './use-section';

/** The main menu: every route of the table that has `menu`, highlighted by the current section. */
export function MainMenu() {
  const { t } = useTranslation();
  const { theme } = usePreferences();
  const section = useSection();
  const items = appRoutes
    .filter((r) => r.menu)
    .map((r) => ({
      key: r.section,
      icon: r.menu?.icon,
      label: <Link to={r.path}>{t(r.menu?.labelKey ?? '')}</Link>,
    }));
  return (
    <Menu
      className="hpc-main-menu"
      mode="horizontal"
      theme={theme === 'dark_blue' ? 'dark' : 'light'}
      selectedKeys={[section]}
      items={items}
      disabledOverflow={false}
    />
  );
}
