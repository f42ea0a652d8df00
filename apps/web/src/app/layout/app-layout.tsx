import { lazy, Suspense, useEffect } from 'react';
import { Layout, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';
import { useAnalytics } from '../../shared/analytics/use-analytics';
import { AlertBarOutlet, AlertBarProvider } from './alert-bar-slot';
import { QuietBoundary } from './quiet-boundary';
import { useSection } from './use-section';

// The alert bars load after the first paint: kept out of the initial bundle (budget: 350 KB gzip).
const AccountAlertBar = lazy(() =>
  import('../../features/alerts/account-alert-bar').then((m) => ({ default: m.AccountAlertBar })),
);
// Saves language and theme for the logged-in user; mounted once here, so one page asks for them once.
const PreferencesSync = lazy(() =>
  import('../../features/user-centre/components/preferences-sync').then((m) => ({
    default: m.PreferencesSync,
  })),
);
const ClusterServiceAlert = lazy(() =>
  import('../../features/clusters/cluster-service-alert').then((m) => ({ default: m.ClusterServiceAlert })),
);

/** Header, alert-bar slot, the page (each page is its own lazily loaded chunk), footer. */
export function AppLayout() {
  const { t } = useTranslation();
  // E-File shows the alert of the centre it is on itself, with its actions disabled.
  const section = useSection();
  useAnalytics();
  useEffect(() => {
    document.title = t('common.siteName');
  }, [t]);
  return (
    <AlertBarProvider>
      <Layout className="hpc-layout">
        <AppHeader />
        <AlertBarOutlet />
        <QuietBoundary>
          <Suspense fallback={null}>
            <PreferencesSync />
            <AccountAlertBar />
            {section !== 'efile' && <ClusterServiceAlert />}
          </Suspense>
        </QuietBoundary>
        <Layout.Content className="hpc-content">
          <Suspense
            fallback={
              <div className="hpc-page-loading">
                <Spin />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </Layout.Content>
        <AppFooter />
      </Layout>
      <ScrollRestoration />
    </AlertBarProvider>
  );
}
