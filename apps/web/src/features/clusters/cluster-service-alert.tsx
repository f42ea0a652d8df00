import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { pick } from '../../shared/i18n/languages';
import type { ServiceKind } from './service-list';
import { useClusterService } from './use-cluster-service';
import { useClusters } from './use-clusters';

/**
 * spec §4: when the user's only cluster has no file service, none enabled, or none answering, say that the cluster
 * is disabled or has no service. With several clusters the user can still pick another, so nothing is shown here;
 * pages name the failing cluster themselves through `useClusterService(...).error`.
 */
export function ClusterServiceAlert({ kind = 'efile' }: { kind?: ServiceKind }) {
  const { t, i18n } = useTranslation();
  const { clusters } = useClusters();
  const only = clusters.length === 1 ? clusters[0] : undefined;
  const { error } = useClusterService(only?.clusterId, kind);
  if (!only || !error) return null;
  const centerName = pick(i18n.language, only.centerName, only.centerNameEn);
  const service = t(`clusters.services.${kind}`);
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid="cluster-service-alert"
      title={t('clusters.alert.unavailable', { centerName, service })}
      description={t(`clusters.${error.messageKey}`, { centerName, service })}
    />
  );
}
