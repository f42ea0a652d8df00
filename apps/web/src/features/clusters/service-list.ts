import type { Cluster } from '@hpc/contracts';

/** The services a cluster may publish (spec §3 params), and the health call each one answers (spec §7). */
export type ServiceKind = 'efile' | 'gridview' | 'sothisai' | 'eshell';

export interface ServiceEntry {
  url: string;
  enabled: boolean;
}

/** Which `params` key holds the JSON service list of each kind. E-Shell is served by the sothisai service. */
export const SERVICE_PARAM: Record<ServiceKind, string> = {
  efile: 'efileUrl',
  gridview: 'gridview_service',
  sothisai: 'sothisai_service',
  eshell: 'sothisai_service',
};

/** The health call of each kind, appended to the service URL. */
export const HEALTH_PATH: Record<ServiceKind, string> = {
  efile: '/check.action',
  eshell: '/sothisai/api/eshell/action/check',
  gridview: '/login/getVersion.action',
  sothisai: '/login/getVersion.action',
};

// `enable` is the text "true"/"false" in the data of the centres; accept a real boolean too.
const isEnabled = (v: unknown) => v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');

/**
 * Parses a service list held as JSON text (`[{"url":"/efile/11250","enable":"true"}]`). Malformed text or entries
 * without a URL count as "nothing configured" rather than failing the page: one broken centre must not hide others.
 */
export function parseServiceList(raw: string | undefined | null): ServiceEntry[] {
  if (!raw || !raw.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const entries: ServiceEntry[] = [];
  for (const item of parsed as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { url, enable } = item as { url?: unknown; enable?: unknown };
    if (typeof url !== 'string' || !url.trim()) continue;
    entries.push({ url: url.trim().replace(/\/+$/, ''), enabled: isEnabled(enable) });
  }
  return entries;
}

/** The service list of `kind` on `cluster`. */
export const clusterServices = (cluster: Pick<Cluster, 'params'>, kind: ServiceKind): ServiceEntry[] =>
  parseServiceList(cluster.params?.[SERVICE_PARAM[kind]]);

/** Joins a service URL (absolute, or relative to the page in the all-in-one) and a path. */
export const joinServiceUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`;
