import type { AppServer } from '@hpc/server-kit';
import type { PortalDeps } from '../../deps';

/** Placeholder until the identity feature lands. */
export async function identityFeature(_app: AppServer, _deps: PortalDeps): Promise<void> {}
