import type { PortalDeps } from '../../deps';

export async function seedCatalog(_deps: PortalDeps): Promise<void> {}
