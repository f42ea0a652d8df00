import { Alert, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fastransClient } from './fastrans-client';
import { useFastrans } from './use-fastrans';

/**
 * "Blocked by the browser" while the page works through the relay: nothing answered on 127.0.0.1 but the client
 * called the portal, so the browser (Safari, or Chrome's Local Network Access) stands between page and client.
 * Shown at the top of the local file browser and the task list so the user knows why the task list updates
 * slower and how to get the direct connection back. Nothing while the page is connected directly.
 *
 * With clients running on several of the user's machines, the relay must know which one the page means (a local
 * path names a file on one machine): a choice of machine, the one seen most recently first. With one, nothing.
 */
export function RelayNote() {
  const { t } = useTranslation();
  const { via, permission, clients, client } = useFastrans();
  if (via !== 'relay') return null;
  const choice =
    clients.length > 1 ? (
      <Space size={4} data-testid="fastrans-relay-client">
        <Typography.Text id="fastrans-relay-client-label">{t('fastrans.relay.clientOn')}</Typography.Text>
        <Select
          size="small"
          aria-labelledby="fastrans-relay-client-label"
          popupMatchSelectWidth={false}
          value={client ?? undefined}
          onChange={(id: string) => void fastransClient.chooseClient(id)}
          options={clients.map((c) => ({ value: c.id, label: c.label || t('fastrans.relay.unnamed') }))}
        />
      </Space>
    ) : undefined;
  return (
    <div data-testid="fastrans-relay-note" data-permission={permission ?? 'unknown'}>
      <Alert
        type="info"
        showIcon
        className="fastrans-relay-note"
        title={t('fastrans.relay.title')}
        description={t(permission === 'denied' ? 'fastrans.relay.denied' : 'fastrans.relay.unreachable')}
        action={choice}
      />
    </div>
  );
}
