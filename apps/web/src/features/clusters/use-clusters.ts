import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Cluster, ClusterUserBaseInfo } from '@hpc/contracts';
import { useSession } from '../account';
import { sortClusters } from './cluster-sort';
import { identity } from '../../shared/api/client';

// Module-level so TanStack Query does not re-run the sort on every render.
const sortBaseInfo = (list: ClusterUserBaseInfo[]) => sortClusters(list);
const sortAll = (list: Cluster[]) => sortClusters(list);

export const clustersQueryKey = (userId: number | undefined) => ['clusters', 'base-info', userId] as const;

/** The raw list of the user's clusters (the hook sorts it); also started by the E-File route's loader. */
export const clustersQueryOptions = (userId: number | undefined) =>
  queryOptions({
    queryKey: clustersQueryKey(userId),
    queryFn: ({ signal }) => identity.clusters.baseInfo({ signal }),
    staleTime: 5 * 60_000,
  });

/**
 * The clusters where the user has a compute user, with account details, disabled centres last; empty until someone
 * is logged in. These are the clusters the user can work on (tokens, services, alerts).
 */
export function useClusters() {
  const { user } = useSession();
  const query = useQuery({ ...clustersQueryOptions(user?.id), enabled: user !== null, select: sortBaseInfo });
  return {
    clusters: query.data ?? [],
    isLoading: query.isLoading,
    isError: query.isError,
    error: query.error,
  };
}

/** A centre as the user menu lists it; the compute user and account are there where the user has one. */
export type VisibleCluster = Cluster &
  Partial<Pick<ClusterUserBaseInfo, 'clusterUserName' | 'accountDetail'>>;

/**
 * The centres to show the user (spec §6 viewer kinds): a manager gets every current cluster, an ordinary user
 * the clusters of their compute users.
 */
export function useVisibleClusters(): VisibleCluster[] {
  const { user } = useSession();
  const { clusters: mine } = useClusters();
  const manager = user?.userInfo.role === 'manager';
  const all = useQuery({
    queryKey: ['clusters', 'all', user?.id],
    queryFn: ({ signal }) => identity.clusters.all({ signal }),
    enabled: manager,
    staleTime: 5 * 60_000,
    select: sortAll,
  });
  if (!manager) return mine;
  const byId = new Map(mine.map((c) => [c.clusterId, c]));
  return (all.data ?? []).map((c) => byId.get(c.clusterId) ?? c);
}
