import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { pick } from '../../shared/i18n/languages';
import type { ServiceDiscoveryError } from './service-errors';
import type { ServiceKind } from './service-list';
import { useClusterService } from './use-cluster-service';
import { useClusters } from './use-clusters';

/** spec §4's alert for one centre: it is disabled or has no service of this kind, and why (the three kinds). */
export function ClusterUnavailable({
  error,
  centerName,
  kind,
  testId = 'cluster-service-alert',
}: {
  error: ServiceDiscoveryError;
  centerName: string;
  kind: ServiceKind;
  testId?: string;
}) {
  const { t } = useTranslation();
  const service = t(`clusters.services.${kind}`);
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid={testId}
      title={t('clusters.alert.unavailable', { centerName, service })}
      description={t(`clusters.${error.messageKey}`, { centerName, service })}
    />
  );
}

/**
 * spec §4: when the user's only cluster has no file service, none enabled, or none answering, say that the cluster
 * is disabled or has no service. With several clusters the user can still pick another, so nothing is shown here;
 * pages name the failing cluster themselves (E-File with {@link ClusterUnavailable}).
 */
export function ClusterServiceAlert({ kind = 'efile' }: { kind?: ServiceKind }) {
  const { i18n } = useTranslation();
  const { clusters } = useClusters();
  const only = clusters.length === 1 ? clusters[0] : undefined;
  const { error } = useClusterService(only?.clusterId, kind);
  if (!only || !error) return null;
  return (
    <ClusterUnavailable
      error={error}
      centerName={pick(i18n.language, only.centerName, only.centerNameEn)}
      kind={kind}
    />
  );
}
