// The clusters feature's public face: service discovery, per-cluster tokens, the cluster list.
export { useClusters } from './use-clusters';
export { ClusterSelect } from './cluster-select';
export { useClusterService, clusterServiceQueryOptions, type ClusterService } from './use-cluster-service';
export { clusterServiceClient, useClusterServiceApi, type ClusterServiceState } from './cluster-service-api';
export { ClusterServiceAlert, ClusterUnavailable } from './cluster-service-alert';
// The token store sits beside the API client (shared/api); re-exported for the efile clients.
export { getClusterToken, clusterTokens } from '../../shared/api/cluster-tokens';
export { serviceDiscovery } from './cluster-services';
export { createServiceDiscovery, type ServiceDiscovery } from './service-discovery';
export { ServiceDiscoveryError, isServiceDiscoveryError, type ServiceErrorKind } from './service-errors';
export { type ServiceKind, clusterServices, parseServiceList } from './service-list';
export { sortClusters, isDisabledCluster, nameSaysDisabled, accountDeactivated } from './cluster-sort';
export { useVisibleClusters, clustersQueryOptions, type VisibleCluster } from './use-clusters';
