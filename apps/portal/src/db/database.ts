/**
 * The portal's tables, one interface per feature (each feature keeps its table types beside its repository).
 * Repositories take `Kysely<PortalDatabase>`; only they write SQL.
 */
import type { CatalogTables } from '../features/catalog/catalog.tables';
import type { IdentityTables } from '../features/identity/identity.tables';
import type { UserPreferenceTables } from '../features/users/user-preference.tables';

export interface PortalDatabase extends CatalogTables, IdentityTables, UserPreferenceTables {}
