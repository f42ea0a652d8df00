import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';

/** Placeholder until the catalog feature lands. */
export async function catalogFeature(_app: AppServer, _deps: PortalDeps): Promise<void> {}
