import {
  CommonCodes,
  PortalCodes,
  SERVICE_LIST_PARAMS,
  type AccessPathMap,
  type ApplicableCluster,
  type Cluster,
  type ClusterListQuery,
  type ClusterUserBaseInfo,
  type ClusterUserDetail,
  type EfileInfo,
  type ServiceEntry,
  type ServiceListParam,
  type ServerText,
} from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { AccountRepository } from '../data/account.repository';
import { toAccountDetail } from '../data/account.model';
import type { ClusterRepository } from '../data/cluster.repository';
import {
  DEFAULT_HOME_ROOT,
  enabledUrls,
  paramsByCluster,
  servesHost,
  sortClusters,
  toCluster,
} from '../data/cluster.model';
import { PortalText } from '../../../messages';

const CLUSTER_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * A message that names a centre, each language with the centre's own name: the English one (the Chinese where it
 * has none) in the English text, the Chinese one in the Chinese.
 */
function namingCentre(
  centre: { centerName: string; centerNameEn: string },
  text: (centreName: string) => ServerText,
): ServerText {
  return { en: text(centre.centerNameEn || centre.centerName).en, zh: text(centre.centerName).zh };
}

export interface ClusterServiceDeps {
  clusters: ClusterRepository;
  accounts: AccountRepository;
  now: () => number;
}

/** Clusters, their service lists, compute users and shared paths (spec §3, §6, §7 "Cluster and service calls"). */
export function createClusterService({ clusters, accounts, now }: ClusterServiceDeps) {
  const mustFind = async (clusterId: string) => {
    const row = await clusters.find(clusterId);
    if (!row) throw new AppError(PortalCodes.notFound, PortalText.noCluster(clusterId));
    return row;
  };

  const service = {
    async add(input: { clusterId: string; centerName: string; centerNameEn?: string; homeRoot?: string }) {
      if (!CLUSTER_ID.test(input.clusterId))
        throw new AppError(CommonCodes.invalidInput, PortalText.clusterIdInvalid);
      if (!input.centerName.trim())
        throw new AppError(CommonCodes.incompleteParams, PortalText.centreNameRequired);
      if (await clusters.find(input.clusterId)) {
        throw new AppError(CommonCodes.invalidInput, PortalText.clusterExists(input.clusterId), {
          status: 409,
        });
      }
      await clusters.insert({
        cluster_id: input.clusterId,
        center_name: input.centerName.trim(),
        center_name_en: input.centerNameEn?.trim() ?? '',
        created_at: now(),
      });
      await clusters.setParam(input.clusterId, 'default_user_home_path', input.homeRoot ?? DEFAULT_HOME_ROOT);
    },

    async rename(clusterId: string, names: { centerName?: string; centerNameEn?: string }) {
      await mustFind(clusterId);
      await clusters.updateNames(clusterId, {
        ...(names.centerName ? { center_name: names.centerName } : {}),
        ...(names.centerNameEn !== undefined ? { center_name_en: names.centerNameEn } : {}),
      });
    },

    /** Sets one param; service lists must be JSON arrays of `{ url, enable }`. An empty value removes it. */
    async setParam(clusterId: string, name: string, value: string) {
      await mustFind(clusterId);
      if (!name || name.length > 100)
        throw new AppError(CommonCodes.invalidInput, PortalText.paramNameInvalid);
      if (value === '') return clusters.deleteParam(clusterId, name);
      if ((SERVICE_LIST_PARAMS as readonly string[]).includes(name)) {
        service.checkServiceList(value);
      }
      await clusters.setParam(clusterId, name, value);
    },

    checkServiceList(value: string) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        throw new AppError(CommonCodes.invalidInput, PortalText.serviceListNotJson);
      }
      const ok =
        Array.isArray(parsed) &&
        parsed.every(
          (e: { url?: unknown; enable?: unknown }) =>
            typeof e?.url === 'string' && e.url !== '' && (e.enable === 'true' || e.enable === 'false'),
        );
      if (!ok) throw new AppError(CommonCodes.invalidInput, PortalText.serviceEntryInvalid);
    },

    setServiceList: (clusterId: string, name: ServiceListParam, entries: readonly ServiceEntry[]) =>
      service.setParam(clusterId, name, JSON.stringify(entries.map(({ url, enable }) => ({ url, enable })))),

    async get(clusterId: string): Promise<Cluster> {
      const row = await mustFind(clusterId);
      return toCluster(row, paramsByCluster(await clusters.params([clusterId])).get(clusterId));
    },

    /** Every cluster (the manager's view, spec §6), optionally filtered by id or name; 停用 last. */
    async list(query: ClusterListQuery = {}): Promise<Cluster[]> {
      const [rows, params] = await Promise.all([clusters.list(), clusters.params()]);
      const byId = paramsByCluster(params);
      const needle = query.centerName?.toLowerCase();
      return sortClusters(
        rows
          .filter((r) => !query.clusterId || r.cluster_id === query.clusterId)
          .filter(
            (r) =>
              !needle ||
              r.center_name.toLowerCase().includes(needle) ||
              r.center_name_en.toLowerCase().includes(needle),
          )
          .map((r) => toCluster(r, byId.get(r.cluster_id))),
      );
    },

    /** The clusters the user has a compute user on, with membership details (ordinary user's view); 停用 last. */
    async computeUsersOf(userId: number): Promise<ClusterUserDetail[]> {
      const rows = await clusters.computeUsersOf(userId);
      const accountIds = [...new Set(rows.map((r) => r.account_id).filter((a): a is string => a !== null))];
      const [params, adminNames] = await Promise.all([
        clusters.params(rows.map((r) => r.cluster_id)),
        accounts.adminNames(accountIds),
      ]);
      const byId = paramsByCluster(params);
      return sortClusters(
        rows.map((r) => ({
          ...toCluster(
            {
              cluster_id: r.cluster_id,
              center_name: r.center_name,
              center_name_en: r.center_name_en,
              created_at: 0,
            },
            byId.get(r.cluster_id),
          ),
          clusterUserName: r.cluster_user_name,
          homePath: r.home_path,
          accountId: r.account_id,
          memberType: r.member_type,
          adminFullName: (r.account_id && adminNames.get(r.account_id)) || '',
          groupId: r.group_id,
        })),
      );
    },

    /** computeUsersOf plus the account details per cluster. */
    async baseInfoOf(userId: number): Promise<ClusterUserBaseInfo[]> {
      const list = await service.computeUsersOf(userId);
      const rows = await accounts.findMany([
        ...new Set(list.flatMap((c) => (c.accountId ? [c.accountId] : []))),
      ]);
      const details = new Map(rows.map((r) => [r.account_id, toAccountDetail(r)]));
      return list.map((c) => ({ ...c, accountDetail: (c.accountId && details.get(c.accountId)) || null }));
    },

    /** Clusters offered on this site, each flagged when the user already has a compute user there. */
    async canApply(userId: number, fromHost?: string): Promise<ApplicableCluster[]> {
      const [all, mine] = await Promise.all([service.list(), clusters.computeUsersOf(userId)]);
      const applied = new Set(mine.map((m) => m.cluster_id));
      return all
        .filter((c) => servesHost(c.params, fromHost))
        .map(({ clusterId, centerName, centerNameEn, disabled }) => ({
          clusterId,
          centerName,
          centerNameEn,
          disabled,
          applied: applied.has(clusterId),
        }));
    },

    /** clusterId → shared storage paths, for every cluster the user has a compute user on (or those asked). */
    async accessPaths(userId: number, only?: readonly string[]): Promise<AccessPathMap> {
      const [mine, paths] = await Promise.all([
        clusters.computeUsersOf(userId),
        clusters.storagePathsOf(userId),
      ]);
      const map: AccessPathMap = {};
      for (const m of mine) if (!only || only.includes(m.cluster_id)) map[m.cluster_id] = [];
      for (const p of paths) map[p.cluster_id]?.push(p.path);
      return map;
    },

    /**
     * The enabled efile URLs of a cluster for anonymous share recipients (their page fails over among them like a
     * logged-in user's). Nothing else about the cluster is said, and an unknown cluster answers an empty list just
     * like one without an enabled file service, so the call cannot tell which cluster ids exist.
     */
    async publicEfileUrls(clusterId: string): Promise<string[]> {
      if (!CLUSTER_ID.test(clusterId)) return [];
      const params = paramsByCluster(await clusters.params([clusterId])).get(clusterId);
      return enabledUrls(params?.efileUrl);
    },

    /**
     * spec §3 "E-File info" for the user on a cluster (default: their first cluster). Refuses with "612007" and the
     * deactivation notice of spec §1 when the account there is disabled, "601009" without a compute user there,
     * "1001" when no file service is enabled.
     */
    async efileInfo(userId: number, clusterId?: string): Promise<EfileInfo> {
      const mine = await service.computeUsersOf(userId);
      const cu = clusterId ? mine.find((c) => c.clusterId === clusterId) : mine[0];
      if (!cu) throw new AppError(CommonCodes.clusterUserMissing);
      if (cu.accountId) {
        const account = await accounts.find(cu.accountId);
        if (account && account.status !== 'Normal') {
          throw new AppError(
            PortalCodes.accountDisabled,
            namingCentre(cu, (centre) => PortalText.accountDeactivated(account.name, centre)),
            { data: { clusterId: cu.clusterId, accountId: account.account_id, centerName: cu.centerName } },
          );
        }
      }
      const urls = enabledUrls(cu.params.efileUrl);
      if (urls.length === 0) {
        throw new AppError(CommonCodes.unavailable, namingCentre(cu, PortalText.noFileServiceEnabled), {
          data: { clusterId: cu.clusterId, kind: cu.params.efileUrl ? 'NoEnableService' : 'NoService' },
        });
      }
      return {
        clusterId: cu.clusterId,
        // Round-robin by user id among the enabled URLs (spec §4); the web fails over through efileUrls.
        efileUrl: urls[userId % urls.length]!,
        efileUrls: urls,
        homePath: cu.homePath,
        username: cu.clusterUserName,
      };
    },
  };
  return service;
}

export type ClusterService = ReturnType<typeof createClusterService>;
