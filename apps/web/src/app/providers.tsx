import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { registerMessageApi } from '../shared/api/notify';
import { createQueryClient } from '../shared/api/query-client';
import { antdLocale } from '../shared/i18n/i18n';
import { PreferencesProvider, usePreferences } from './preferences';
import { antTheme } from './theme/themes';

/** Hands Ant Design's themed message API to code outside React (see shared/api/notify.ts). */
function MessageBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    registerMessageApi(message);
    return () => registerMessageApi(null);
  }, [message]);
  return null;
}

function ThemedAnt({ children }: { children: ReactNode }) {
  const { language, theme } = usePreferences();
  const themeConfig = useMemo(() => antTheme(theme), [theme]);
  return (
    <ConfigProvider locale={antdLocale(language)} theme={themeConfig}>
      <AntApp>
        <MessageBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

export function Providers({
  children,
  queryClient: given,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <ThemedAnt>{children}</ThemedAnt>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
