/**
 * The portal's tables, one interface per feature, all in db/tables/ beside the migrations that create them: the
 * database layer sits below the features and imports none of them (eslint.config.js). Repositories take
 * `Kysely<PortalDatabase>`; only they write SQL.
 */
import type { CatalogTables } from './tables/catalog.tables';
import type { FastransTables } from './tables/fastrans.tables';
import type { IdentityTables } from './tables/identity.tables';
import type { UserPreferenceTables } from './tables/user-preference.tables';

export interface PortalDatabase extends CatalogTables, FastransTables, IdentityTables, UserPreferenceTables {}
