import { useEffect, useRef } from 'react';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { DownloadOutlined, PlayCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FASTRANS_PACKAGE_URL, FASTRANS_START_URL } from './fastrans-client';

/** spec §9: the prompt closes one second after start or download is clicked. */
export const PROMPT_CLOSE_MS = 1000;

export type PromptKind = 'notRunning' | 'blocked' | 'tooOld' | 'unverified';

interface Props {
  kind: PromptKind;
  /** The running client's version (prompt b). */
  version: string | null;
  /** The browser's answer for local network access: `denied` adds that second step to prompt (a). */
  permission: PermissionState | null;
  /** `unverified`: the port where a program that is not the user's client answered. */
  foreignPort?: number | null;
  updateUrl: string;
  onClose: () => void;
  /** Prompt (b): go on with the old client. */
  onContinue: () => void;
  /** Try the detection again (after starting the client or allowing the browser). */
  onRetry: () => void;
}

/**
 * The fast-transfer prompt (spec §2): (a) client not detected: a start button (the `fastrans://` link the package
 * registers) and a download link; (b) client too old: update, or continue uploading. A close icon; it closes 1 s
 * after start or download is clicked. A third form says the browser blocks the page's connection to a running client
 * (and the relay did not answer either): allow local network access, then detect again. A fourth (`unverified`) is
 * prompt (a) after a warning: what answered on the client's port is not the user's client (it did not prove the
 * user's key); download the client again from this page.
 */
export function FastransPrompt({
  kind,
  version,
  permission,
  foreignPort = null,
  updateUrl,
  onClose,
  onContinue,
  onRetry,
}: Props) {
  const { t } = useTranslation();
  const closing = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (closing.current && clearTimeout(closing.current)), []);
  const closeSoon = () => {
    if (closing.current) clearTimeout(closing.current);
    closing.current = setTimeout(onClose, PROMPT_CLOSE_MS);
  };
  const title =
    kind === 'tooOld'
      ? t('fastrans.prompt.oldTitle')
      : kind === 'blocked'
        ? t('fastrans.prompt.blockedTitle')
        : kind === 'unverified'
          ? t('fastrans.prompt.unverifiedTitle')
          : t('fastrans.prompt.startTitle');
  return (
    <Modal open title={title} onCancel={onClose} footer={null} destroyOnHidden data-testid="fastrans-prompt">
      <div data-testid={`fastrans-prompt-${kind}`}>
        {kind === 'tooOld' ? (
          <>
            <Typography.Paragraph>
              {t('fastrans.prompt.oldText', { version: version ?? '?' })}
            </Typography.Paragraph>
            <Space wrap>
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                href={updateUrl}
                download
                onClick={closeSoon}
                data-testid="fastrans-update"
              >
                {t('fastrans.prompt.update')}
              </Button>
              <Button onClick={onContinue} data-testid="fastrans-continue">
                {t('fastrans.prompt.continue')}
              </Button>
            </Space>
          </>
        ) : kind === 'blocked' ? (
          // The client runs (it called the portal) but neither way reaches it: the browser's setting is the way
          // out, not starting or downloading a client the user already has.
          <>
            <Alert
              type="warning"
              showIcon
              className="fastrans-blocked"
              title={t('fastrans.prompt.blockedText')}
            />
            <Typography.Paragraph>{t('fastrans.prompt.blockedHint')}</Typography.Paragraph>
            <Button type="primary" icon={<ReloadOutlined />} onClick={onRetry} data-testid="fastrans-retry">
              {t('fastrans.prompt.retry')}
            </Button>
          </>
        ) : (
          <>
            {kind === 'unverified' && (
              <div data-testid="fastrans-prompt-foreign">
                <Alert
                  type="error"
                  showIcon
                  title={t('fastrans.prompt.unverifiedText', { port: foreignPort ?? '?' })}
                />
              </div>
            )}
            <Typography.Paragraph>
              {kind === 'unverified' ? t('fastrans.prompt.unverifiedHint') : t('fastrans.prompt.startText')}
            </Typography.Paragraph>
            <Space wrap>
              <Button
                type="primary"
                icon={<PlayCircleOutlined />}
                href={FASTRANS_START_URL}
                onClick={closeSoon}
                data-testid="fastrans-start"
              >
                {t('fastrans.prompt.start')}
              </Button>
              <Button
                icon={<DownloadOutlined />}
                href={FASTRANS_PACKAGE_URL}
                download
                onClick={closeSoon}
                data-testid="fastrans-download-client"
              >
                {t('fastrans.prompt.download')}
              </Button>
              <Button icon={<ReloadOutlined />} onClick={onRetry} data-testid="fastrans-retry">
                {t('fastrans.prompt.retry')}
              </Button>
            </Space>
            <Typography.Paragraph type="secondary" className="fastrans-prompt-hint">
              {t('fastrans.prompt.startHint')}
            </Typography.Paragraph>
            {permission === 'denied' && (
              // The second step, after starting the client: the browser's own setting.
              <div data-testid="fastrans-prompt-denied">
                <Alert type="warning" showIcon title={t('fastrans.prompt.deniedToo')} />
              </div>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
