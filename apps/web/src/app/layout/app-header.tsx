import { lazy, Suspense } from 'react';
import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HeaderSearch } from './header-search';
import { MainMenu } from './main-menu';
import { QuietBoundary } from './quiet-boundary';
import { LanguageSwitch, ThemeSwitch } from './preference-switches';

// Not needed for the first paint: kept out of the initial bundle (budget: 350 KB gzip).
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })));

function Logo() {
  return (
    <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--hpc-primary)" />
      <path d="M8 10h16M8 16h16M8 22h16" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
      <circle cx="12" cy="10" r="2" fill="var(--hpc-primary)" stroke="#fff" strokeWidth="1.5" />
      <circle cx="20" cy="16" r="2" fill="var(--hpc-primary)" stroke="#fff" strokeWidth="1.5" />
      <circle cx="14" cy="22" r="2" fill="var(--hpc-primary)" stroke="#fff" strokeWidth="1.5" />
    </svg>
  );
}

export function AppHeader() {
  const { t } = useTranslation();
  return (
    <Layout.Header className="hpc-header">
      <Link
        to="/main-page"
        className="hpc-logo"
        // The visible site name is part of the accessible name (WCAG 2.5.3 "label in name").
        aria-label={`${t('common.siteName')}${t('common.colon')}${t('nav.logo')}`}
        title={t('common.siteName')}
      >
        <Logo />
        <span className="hpc-logo-text">{t('common.siteName')}</span>
      </Link>
      <MainMenu />
      <div className="hpc-header-right">
        <HeaderSearch />
        <LanguageSwitch />
        <ThemeSwitch />
        <QuietBoundary>
          <Suspense fallback={null}>
            <UserMenu />
          </Suspense>
        </QuietBoundary>
      </div>
    </Layout.Header>
  );
}
