import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFastrans } from './use-fastrans';

/**
 * "Blocked by the browser" while the page works through the relay: nothing answered on 127.0.0.1 but the client
 * called the portal, so the browser (Safari, or Chrome's Local Network Access) stands between page and client.
 * Shown at the top of the local file browser and the task list so the user knows why the task list updates
 * slower and how to get the direct connection back. Nothing while the page is connected directly.
 */
export function RelayNote() {
  const { t } = useTranslation();
  const { via, permission } = useFastrans();
  if (via !== 'relay') return null;
  return (
    <div data-testid="fastrans-relay-note" data-permission={permission ?? 'unknown'}>
      <Alert
        type="info"
        showIcon
        className="fastrans-relay-note"
        title={t('fastrans.relay.title')}
        description={t(permission === 'denied' ? 'fastrans.relay.denied' : 'fastrans.relay.unreachable')}
      />
    </div>
  );
}
