import type { PortalDeps } from '../../deps';
import { seedCatalog } from '../../features/catalog/catalog.seed';
import { seedIdentity } from '../../features/identity/identity.seed';

/**
 * Demo data for the all-in-one start: each feature seeds itself only when its tables are empty, so a second start
 * on the same DATA_DIR keeps everything (and an operator's own data is never touched).
 */
export async function seedDemo(deps: PortalDeps): Promise<void> {
  await seedCatalog(deps);
  await seedIdentity(deps);
}
