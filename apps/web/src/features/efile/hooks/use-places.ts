import { useMemo } from 'react';
import type { InitInfo } from '@hpc/api-client';
import type { ClusterUserBaseInfo } from '@hpc/contracts';
import { pick } from '../../../shared/i18n/languages';
import { homeDirectory, userHomes } from '../lib/home-places';

/**
 * The toolbar's places on the centre on screen: the centre choices, the home directory, the user's home on each
 * centre, and the share directories (the granted folders other than the home and the home root). Memoized, so the
 * toolbar gets the same values while the folder's pages change.
 */
export function usePlaces(
  clusters: readonly ClusterUserBaseInfo[],
  clusterId: string | null,
  init: InitInfo | null,
  lang: string,
) {
  const clusterChoices = useMemo(
    () => clusters.map((c) => ({ id: c.clusterId, name: pick(lang, c.centerName, c.centerNameEn) })),
    [clusters, lang],
  );
  const current = clusters.find((c) => c.clusterId === clusterId);
  const homeDir = homeDirectory(current?.params.default_user_home_path, init);
  const homes = useMemo(
    () =>
      userHomes(
        clusters.map((c) => ({
          clusterId: c.clusterId,
          centre: pick(lang, c.centerName, c.centerNameEn),
          homePath: c.homePath,
        })),
        { clusterId, homePath: init?.homePath ?? null },
      ),
    [clusters, lang, clusterId, init],
  );
  const roots = useMemo(() => init?.roots ?? [], [init]);
  const shareRoots = useMemo(
    () => roots.filter((r) => r !== init?.homePath && r !== homeDir),
    [roots, init, homeDir],
  );
  return { clusterChoices, homeDir, homes, roots, shareRoots };
}
