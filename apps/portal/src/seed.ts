import type { PortalDeps } from './deps';
import { seedCatalog } from './features/catalog';
import { seedIdentity } from './features/identity';

/**
 * Demo data, seeded by its callers (`buildPortal` when SEED_DEMO is set, `admin demo seed`), never by opening the
 * deps: deps sit below the features and import none of them. Each feature seeds itself only when its
 * tables are empty, so a second start on the same DATA_DIR keeps everything (and an operator's own data is never
 * touched).
 */
export async function seedDemo(deps: PortalDeps): Promise<void> {
  await seedCatalog(deps);
  await seedIdentity(deps);
}
