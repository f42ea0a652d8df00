import { useMemo, useState } from 'react';
import { Alert, Popover, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Limits } from '@hpc/contracts';
import { session } from '../../shared/utils/storage';
import { alertMessages, alertSignature, type AlertMessage } from './account-alerts';
import { useAccountAlerts } from './use-account-alerts';
import './account-alert-bar.css';

const DISMISSED_KEY = 'hpc.alerts.dismissed';

function useAlertText() {
  const { t, i18n } = useTranslation();
  const date = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }),
    [i18n.language],
  );
  return (m: AlertMessage) =>
    t(m.key, { ...m.params, date: m.params.date === undefined ? '' : date.format(m.params.date) });
}

/**
 * The account alert bar of spec §4/§9 (height 46, below the header): a deactivated account, a balance of at most
 * 100, or an expiry within 7 days. One line shows the most severe account; the rest are one click away. Closing it
 * lasts for the browser session, until the set of alerts changes.
 */
export function AccountAlertBar() {
  const { t, i18n } = useTranslation();
  const text = useAlertText();
  const { alerts, balanceThreshold } = useAccountAlerts();
  const signature = alertSignature(alerts);
  const [dismissed, setDismissed] = useState(() => session.get(DISMISSED_KEY));

  if (alerts.length === 0 || dismissed === signature) return null;
  const lines = alerts.flatMap((a) => alertMessages(a, i18n.language, balanceThreshold));
  const first = lines[0]!;
  const deactivated = first.kind === 'disabled';

  const close = () => {
    session.set(DISMISSED_KEY, signature);
    setDismissed(signature);
  };

  return (
    <div
      className="hpc-account-alert-bar"
      style={{ height: Limits.alertBarHeight }}
      data-testid="account-alert-bar"
    >
      <Alert
        banner
        showIcon
        type={deactivated ? 'error' : 'warning'}
        closable={{ onClose: close, 'aria-label': t('alerts.close') }}
        title={
          <Typography.Text ellipsis={{ tooltip: text(first) }} className="hpc-account-alert-text">
            {text(first)}
          </Typography.Text>
        }
        action={
          lines.length > 1 ? (
            <Popover
              trigger="click"
              placement="bottomRight"
              title={t('alerts.allTitle')}
              content={
                <ul className="hpc-account-alert-list">
                  {lines.map((m) => (
                    <li key={`${m.key}:${m.params.name}:${m.params.centers}`}>{text(m)}</li>
                  ))}
                </ul>
              }
            >
              <Typography.Link>{t('alerts.more', { count: lines.length })}</Typography.Link>
            </Popover>
          ) : undefined
        }
      />
    </div>
  );
}
