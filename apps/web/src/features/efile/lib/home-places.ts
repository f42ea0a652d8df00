import { isInsideRoots, normalizeTypedPath } from './paths';

/**
 * The two home places of the toolbar (spec §2 "home directory, user home directory").
 *
 * - Home directory: the cluster's home root (its `default_user_home_path`, e.g. `/public/home`) when the user may
 *   list it there (the root is inside the roots efile grants them, as for operators granted the whole home file
 *   system); otherwise it is the compute user's own home on the selected cluster, i.e. `cd ~` there.
 * - User home directory: the user's own home on each centre where they have a compute user (one entry per centre),
 *   so a user of several centres reaches their home on another one without switching first.
 */
export function homeDirectory(
  homeRoot: string | undefined,
  init: { homePath: string; roots: readonly string[] } | null,
): string | null {
  if (!init) return null;
  const root = homeRoot ? normalizeTypedPath(homeRoot) : null;
  if (root && root !== init.homePath && isInsideRoots(root, init.roots)) return root;
  return init.homePath;
}

export interface UserHome {
  clusterId: string;
  /** The centre's name in the page's language. */
  centre: string;
  path: string;
}

/**
 * The user's homes, one per centre with a compute user and a home. On the selected centre efile's own answer
 * (`initInfo.homePath`) wins over the portal's record, since it is where efile actually confines the user.
 */
export function userHomes(
  clusters: readonly { clusterId: string; centre: string; homePath?: string | null }[],
  current: { clusterId: string | null; homePath: string | null },
): UserHome[] {
  const out: UserHome[] = [];
  for (const c of clusters) {
    const path = c.clusterId === current.clusterId && current.homePath ? current.homePath : c.homePath;
    if (path) out.push({ clusterId: c.clusterId, centre: c.centre, path });
  }
  return out;
}
