import { Value } from 'typebox/value';
import { Type } from 'typebox';
import { ServiceEntry, type Cluster, type ClusterParams } from '@hpc/contracts';
import type { ClusterRow } from './cluster.repository';

/** Pure rules about clusters shared by the cluster and account services (no I/O). */

/** The word for "disabled": a cluster whose name contains it sorts last (spec §3). */
export const DISABLED_MARK = '停用';
export const DEFAULT_HOME_ROOT = '/public/home';

export const isDisabledName = (centerName: string): boolean => centerName.includes(DISABLED_MARK);

const idCollator = new Intl.Collator('en', { numeric: true });

/** Clusters whose name contains 停用 last; otherwise by clusterId in numeric order. Returns a new array. */
export function sortClusters<T extends { clusterId: string; centerName: string }>(list: readonly T[]): T[] {
  return [...list].sort(
    (a, b) =>
      Number(isDisabledName(a.centerName)) - Number(isDisabledName(b.centerName)) ||
      idCollator.compare(a.clusterId, b.clusterId),
  );
}

/** Groups param rows into clusterId → params map. */
export function paramsByCluster(rows: readonly { cluster_id: string; name: string; value: string }[]) {
  const map = new Map<string, ClusterParams>();
  for (const r of rows) {
    const params = map.get(r.cluster_id) ?? {};
    params[r.name] = r.value;
    map.set(r.cluster_id, params);
  }
  return map;
}

export function toCluster(row: ClusterRow, params: ClusterParams = {}): Cluster {
  return {
    clusterId: row.cluster_id,
    centerName: row.center_name,
    centerNameEn: row.center_name_en,
    disabled: isDisabledName(row.center_name),
    params,
  };
}

const ServiceList = Type.Array(ServiceEntry);

/** The entries of a service-list param; a missing or malformed list counts as none configured. */
export function parseServiceList(text: string | undefined): ServiceEntry[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Value.Check(ServiceList, value) ? value : [];
  } catch {
    return [];
  }
}

export const enabledUrls = (text: string | undefined): string[] =>
  parseServiceList(text)
    .filter((e) => e.enable === 'true')
    .map((e) => e.url);

/** The default home of a compute user: the cluster's `default_user_home_path` joined with the user name. */
export function defaultHome(params: ClusterParams, clusterUserName: string): string {
  const root = (params.default_user_home_path || DEFAULT_HOME_ROOT).replace(/\/+$/, '');
  return `${root}/${clusterUserName}`;
}

/**
 * A home path must be absolute, normalised, without spaces and end with the compute user name (spec §5 "home
 * directory must start with /, end with the computing user name, be complete and have no spaces").
 */
export function isValidHome(home: string, clusterUserName: string): boolean {
  return (
    home.startsWith('/') &&
    !/\s/.test(home) &&
    !home.split('/').some((part) => part === '.' || part === '..') &&
    !home.includes('//') &&
    home.endsWith(`/${clusterUserName}`)
  );
}

/** Whether a cluster is offered on the site at `fromHost`: its `site_hosts` param (comma-separated) lists it. */
export function servesHost(params: ClusterParams, fromHost: string | undefined): boolean {
  const hosts = params.site_hosts;
  if (!fromHost || !hosts) return true;
  return hosts
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .includes(fromHost.trim().toLowerCase());
}
