import { Button, Card, Popconfirm, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../shared/api/notify';
import { fastransApi } from './fastrans.api';

/**
 * The user's fast-transfer client key (docs/FASTRANS.md "Security"), in the user centre: revoked when a package may
 * have been read by others. `onRevoked`: the page refreshes what the revocation ended with it (the day tokens).
 */
export function ClientKeyCard({ onRevoked }: { onRevoked?: () => void }) {
  const { t } = useTranslation();
  const revoke = useMutation({
    mutationFn: () => fastransApi.revokeClientKey(),
    onSuccess: (r) => notifySuccess(t('fastrans.clientKey.revoked', { count: r.revokedTokens })),
    onSettled: () => onRevoked?.(),
  });
  return (
    <Card title={t('fastrans.clientKey.title')} variant="borderless" data-testid="uc-client-key">
      <Typography.Paragraph type="secondary">{t('fastrans.clientKey.intro')}</Typography.Paragraph>
      <Popconfirm
        title={t('fastrans.clientKey.confirm')}
        okText={t('fastrans.clientKey.revoke')}
        onConfirm={() => revoke.mutateAsync()}
      >
        <Button danger loading={revoke.isPending} data-testid="uc-client-key-revoke">
          {t('fastrans.clientKey.revoke')}
        </Button>
      </Popconfirm>
    </Card>
  );
}
