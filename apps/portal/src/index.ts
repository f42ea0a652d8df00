export { buildPortal, registerPortal, spaIndexReader } from './app';
export { readPortalConfig, type PortalConfig } from './config';
export { openPortalDeps, type PortalDeps } from './deps';
export { seedSyntheticCatalog } from './features/catalog';
export { seedDemo } from './seed';
export { ownerRightsLookup, publishMountedJobService, publishMountedShellService } from './features/identity';
