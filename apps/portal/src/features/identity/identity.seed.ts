import type { PortalDeps } from '../../deps';

export async function seedIdentity(_deps: PortalDeps): Promise<void> {}
