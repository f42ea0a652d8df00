import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { RequireSession, useSession } from '../../account';
import { accountDeactivated, useClusters } from '../../clusters';
import { pick } from '../../../shared/i18n/languages';
import { AccountsWidget } from '../components/accounts-widget';
import { ClusterJobs } from '../components/cluster-jobs';
import { QuickEntries } from '../components/quick-entries';
import { StorageWidgets } from '../components/storage-widget';
import '../../../shared/ui/page.css';
import '../dashboard.css';

function Dashboard() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const { clusters, isLoading } = useClusters();
  // Clusters whose name says they are disabled, and those where the user's account is deactivated, are left to the
  // alert bar, which names them: nothing can run there, and every widget's call would fail with its own toast.
  const usable = clusters.filter((c) => !c.disabled && !accountDeactivated(c));
  return (
    <div className="hpc-page hpc-dash">
      <h1 className="hpc-page-title">
        {t('dashboard.greeting', { name: user?.userInfo.fullName || user?.userInfo.username || '' })}
      </h1>
      <div className="hpc-dash-grid">
        <QuickEntries />
        <AccountsWidget />
        {isLoading ? <Skeleton active /> : null}
        {usable.map((c) => {
          const center = pick(i18n.language, c.centerName, c.centerNameEn);
          return <ClusterJobs key={`jobs-${c.clusterId}`} clusterId={c.clusterId} center={center} />;
        })}
        {usable.map((c) => {
          const center = pick(i18n.language, c.centerName, c.centerNameEn);
          return <StorageWidgets key={`storage-${c.clusterId}`} clusterId={c.clusterId} center={center} />;
        })}
      </div>
    </div>
  );
}

/** /dashboard (spec §2: first in the main menu; issue 22 §4): every widget loads and fails on its own. */
export default function DashboardPage() {
  return (
    <RequireSession>
      <Dashboard />
    </RequireSession>
  );
}
