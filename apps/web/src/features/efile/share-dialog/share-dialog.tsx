import { useEffect, useState } from 'react';
import { App, Button, Descriptions, Form, Input, Modal, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '@hpc/contracts';
import { notifyError } from '../../../shared/api/notify';
import type { ShareInfo } from '@hpc/api-client';
import type { EfileApi } from '../api/efile.api';
import { validityProblem } from '../lib/share-validity';
import { parentPath } from '../lib/paths';
import { absoluteLink, generateShareCode } from './share-code';
import { LinuxCommands } from './linux-commands';
import { formatDateTime } from '../../../shared/utils/format';
import { useCopyTips } from '../../../shared/ui/use-copy-tips';

interface Props {
  api: EfileApi;
  entry: FileEntry;
  maxDays: number;
  onClose: () => void;
}

/**
 * The sharing dialog (spec §2): validity in days and an extraction code (generated, editable) open a link; the
 * link and code can be copied and the share closed. A second tab generates the Linux commands.
 */
export function ShareDialog({ api, entry, maxDays, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [days, setDays] = useState('7');
  const [code, setCode] = useState(generateShareCode);
  const [share, setShare] = useState<ShareInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const problem = validityProblem(days, maxDays);
  const [touched, setTouched] = useState(false);

  // An item already shared shows its open link.
  useEffect(() => {
    let live = true;
    api.shareList(1, 500).then(
      (r) => {
        const found = r.list.find((s) => s.path === entry.path && s.status === 'valid');
        if (live && found) setShare(found);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, entry.path]);

  const open = async () => {
    setTouched(true);
    if (problem || !code.trim()) return;
    setBusy(true);
    try {
      setShare(await api.shareOpen({ path: entry.path, validDays: days.trim(), password: code.trim() }));
      void message.success(t('efile.share.opened'));
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  };

  const close = async () => {
    if (!share) return;
    setBusy(true);
    try {
      await api.shareClose({ shareId: share.shareId });
      setShare(null);
      setCode(generateShareCode());
      void message.success(t('efile.share.closed'));
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  };

  const date = (ms: number) => formatDateTime(ms, i18n.language);
  const link = share ? absoluteLink(share.link, window.location.origin) : '';
  const copyTips = useCopyTips();

  const shareTab = share ? (
    <Descriptions column={1} size="small" bordered data-testid="efile-share-info">
      <Descriptions.Item label={t('efile.share.link')}>
        <Typography.Text copyable={{ text: link, ...copyTips }} data-testid="efile-share-link">
          {link}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('efile.share.code')}>
        <Typography.Text copyable={{ text: share.password, ...copyTips }} data-testid="efile-share-code">
          {share.password}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('efile.share.both')}>
        <Typography.Text
          copyable={{ text: t('efile.share.copyText', { link, code: share.password }), ...copyTips }}
        >
          {t('efile.share.copyBoth')}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('efile.share.endTime')}>{date(share.endUseTime)}</Descriptions.Item>
    </Descriptions>
  ) : (
    <Form layout="vertical" onFinish={() => void open()}>
      <Form.Item
        label={t('efile.share.validity.label')}
        htmlFor="efile-share-days"
        required
        validateStatus={touched && problem ? 'error' : undefined}
        help={
          touched && problem
            ? t(`efile.share.validity.${problem}`, { shareMaxValidDays: maxDays })
            : undefined
        }
      >
        <Input
          value={days}
          onChange={(e) => {
            setDays(e.target.value);
            setTouched(true);
          }}
          placeholder={t('efile.share.validity.placeholder')}
          suffix={t('efile.share.days')}
          id="efile-share-days"
          data-testid="efile-share-days"
        />
      </Form.Item>
      <Form.Item
        label={t('efile.share.code')}
        htmlFor="efile-share-code"
        required
        validateStatus={touched && !code.trim() ? 'error' : undefined}
        help={touched && !code.trim() ? t('efile.share.codeRequired') : undefined}
      >
        <Input
          value={code}
          maxLength={64}
          onChange={(e) => setCode(e.target.value)}
          id="efile-share-code"
          data-testid="efile-share-code-input"
          addonAfter={
            // A button, not an <a> without href: reachable by Tab and Enter like the rest of the dialog.
            <Button type="link" size="small" onClick={() => setCode(generateShareCode())}>
              {t('efile.share.regenerate')}
            </Button>
          }
        />
      </Form.Item>
    </Form>
  );

  return (
    <Modal
      open
      title={t('efile.share.title', { name: entry.name })}
      onCancel={onClose}
      width={640}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('efile.close')}
        </Button>,
        share ? (
          <Button
            key="off"
            danger
            loading={busy}
            onClick={() => void close()}
            data-testid="efile-share-close"
          >
            {t('efile.share.close')}
          </Button>
        ) : (
          <Button
            key="on"
            type="primary"
            loading={busy}
            onClick={() => void open()}
            data-testid="efile-share-open"
          >
            {t('efile.share.open')}
          </Button>
        ),
      ]}
    >
      <Tabs
        items={[
          { key: 'link', label: t('efile.share.tabLink'), children: shareTab },
          {
            key: 'linux',
            label: t('efile.share.tabLinux'),
            children: (
              <LinuxCommands
                api={api}
                downloadPath={entry.path}
                uploadDir={entry.isDirectory ? entry.path : parentPath(entry.path)}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}
