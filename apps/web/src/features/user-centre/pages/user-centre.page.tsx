import { Card, Skeleton } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RequireSession } from '../../account';
import { ClientKeyCard } from '../../fastrans';
import { identity } from '../../../shared/api/client';
import { AccountsCard } from '../components/accounts-card';
import { ClustersCard } from '../components/clusters-card';
import { CREDENTIALS_KEY, CredentialsCard } from '../components/credentials-card';
import { PasswordCard } from '../components/password-card';
import { PreferencesCard } from '../components/preferences-card';
import { ProfileCard } from '../components/profile-card';
import { SessionsCard } from '../components/sessions-card';
import '../../../shared/ui/page.css';
import '../user-centre.css';

function UserCenter() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const profile = useQuery({
    queryKey: ['user-centre', 'profile'],
    queryFn: ({ signal }) => identity.user.profile({ signal }),
  });
  return (
    <div className="hpc-page hpc-user-centre">
      <h1 className="hpc-page-title">{t('user-centre.title')}</h1>
      <div className="hpc-uc-grid">
        {profile.data ? (
          <>
            <ProfileCard profile={profile.data} />
            <PasswordCard profile={profile.data} />
          </>
        ) : (
          <Card>
            <Skeleton active />
          </Card>
        )}
        <PreferencesCard />
      </div>
      <AccountsCard />
      <ClustersCard />
      <SessionsCard />
      <CredentialsCard />
      {/* Revoking the key revokes the fast-transfer day tokens listed above. */}
      <ClientKeyCard onRevoked={() => void client.invalidateQueries({ queryKey: CREDENTIALS_KEY })} />
    </div>
  );
}

/** /user-center (spec §2 main-menu label "User Center", in our English "User centre"): behind the user menu, for logged-in users. */
export default function UserCenterPage() {
  return (
    <RequireSession>
      <UserCenter />
    </RequireSession>
  );
}
