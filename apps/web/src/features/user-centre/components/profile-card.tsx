import { Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserProfile } from '@hpc/contracts';
import { formatDate } from '../../../shared/utils/format';
import { useSession } from '../../account';

export function ProfileCard({ profile }: { profile: UserProfile }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  return (
    <Card title={t('user-centre.profile.title')} variant="borderless">
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'username', label: t('user-centre.profile.username'), children: profile.username },
          { key: 'fullName', label: t('user-centre.profile.fullName'), children: profile.fullName || '-' },
          { key: 'email', label: t('user-centre.profile.email'), children: profile.email || '-' },
          {
            key: 'role',
            label: t('user-centre.profile.role'),
            children: <Tag>{t(`user-centre.profile.roles.${profile.role}`)}</Tag>,
          },
          {
            key: 'login',
            label: t('user-centre.profile.loginMethod'),
            children: t(`user-centre.profile.methods.${user?.userInfo.authMethod ?? 'password'}`),
          },
          {
            key: 'created',
            label: t('user-centre.profile.created'),
            children: formatDate(profile.createdAt, i18n.language),
          },
        ]}
      />
    </Card>
  );
}
