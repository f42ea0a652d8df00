import { useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, Result, Spin, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ShareBrowser } from '../components/share-browser';
import { createShareApi, shareErrorKey } from '../share.api';
import { isTransient } from '@hpc/api-client';
import { FileCodes } from '@hpc/contracts';
import { usePublicEfile } from '../use-public-efile';
import { formatDateTime } from '../../../shared/utils/format';
import '../share.css';

interface Access {
  shareToken: string;
  name: string;
  isDir: boolean;
}

/**
 * /share/:clusterId/:shareId, for anyone with the link: the extraction code first, then the shared file or folder.
 * Wrong code, expired link, closed link and throttling each say so in the visitor's language.
 */
export default function SharePage() {
  const { t, i18n } = useTranslation();
  const { clusterId = '', shareId = '' } = useParams();
  const efile = usePublicEfile(clusterId, shareId);
  const api = useMemo(
    () => (efile.url ? createShareApi(clusterId, efile.url) : null),
    [clusterId, efile.url],
  );
  const { failover } = efile;
  const [code, setCode] = useState('');
  const [access, setAccess] = useState<Access | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const info = useQuery({
    queryKey: ['share-public', clusterId, shareId, 'info', efile.url],
    queryFn: async () => {
      try {
        return await api!.info(shareId);
      } catch (e) {
        // An instance that stopped answering since discovery: the next working one is tried (spec §4).
        if (isTransient(e)) failover();
        throw e;
      }
    },
    enabled: api !== null,
    retry: false,
    meta: { silent: true },
  });
  const onError = (e: unknown) => {
    if (isTransient(e)) failover();
    setError(shareErrorKey(e));
  };

  const verify = async () => {
    if (!code.trim()) return setError('share.codeRequired');
    setBusy(true);
    setError(null);
    try {
      const r = await api!.verify(shareId, code.trim());
      setAccess({ shareToken: r.shareToken, name: r.name, isDir: r.isDir });
    } catch (e) {
      onError(e);
    } finally {
      setBusy(false);
    }
  };

  if (efile.error || efile.failed) {
    return (
      <Result
        status="warning"
        title={t(efile.error ? 'share.unavailable' : 'errors.network')}
        subTitle={efile.error ? t('share.unavailableHint') : undefined}
        data-testid="share-unavailable"
      />
    );
  }
  if (efile.isLoading || info.isLoading || !api) return <Spin className="share-loading" />;
  if (info.isError) {
    // The link itself is refused (no such share, closed, expired): what it was, and the one way on.
    const key = shareErrorKey(info.error);
    const missing = key === `errors.${FileCodes.notFound}` || key === `errors.${FileCodes.dirNotFound}`;
    return (
      <Result
        status="warning"
        title={t(missing ? 'share.notFound' : key)}
        subTitle={t('share.askSharer')}
        data-testid="share-refused"
      />
    );
  }

  const end = info.data ? formatDateTime(info.data.endUseTime, i18n.language) : '';
  return (
    <div className="share-page" data-testid="share-page">
      {access ? (
        <Card
          title={t('share.title', { sharer: info.data?.sharer ?? '' })}
          extra={<Typography.Text type="secondary">{t('share.validUntil', { time: end })}</Typography.Text>}
        >
          {error && <Alert className="share-alert" type="error" showIcon title={t(error)} />}
          <ShareBrowser
            api={api}
            shareToken={access.shareToken}
            name={access.name}
            isDir={access.isDir}
            onError={setError}
          />
        </Card>
      ) : (
        <Card className="share-code-card" title={t('share.enterCode')}>
          <Typography.Paragraph type="secondary">
            {t('share.from', { sharer: info.data?.sharer ?? '', time: end })}
          </Typography.Paragraph>
          <Form layout="vertical" onFinish={() => void verify()}>
            <Form.Item validateStatus={error ? 'error' : undefined} help={error ? t(error) : undefined}>
              <Input
                prefix={<LockOutlined />}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                placeholder={t('share.codePlaceholder')}
                aria-label={t('share.codePlaceholder')}
                autoFocus
                data-testid="share-code"
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy} data-testid="share-submit">
              {t('share.submit')}
            </Button>
          </Form>
        </Card>
      )}
    </div>
  );
}
