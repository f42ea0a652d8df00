import { Suspense, useEffect } from 'react';
import { Layout, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';
import { AlertBarOutlet, AlertBarProvider } from './alert-bar-slot';

/** Header, alert-bar slot, the page (each page is its own lazily loaded chunk), footer. */
export function AppLayout() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = t('common.siteName');
  }, [t]);
  return (
    <AlertBarProvider>
      <Layout className="hpc-layout">
        <AppHeader />
        <AlertBarOutlet />
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
