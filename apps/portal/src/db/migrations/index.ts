import type { Migration } from 'kysely';
import * as m001 from './001-catalog';
import * as m002 from './002-identity';
import * as m003 from './003-model-files-and-preferences';
import * as m004 from './004-dashboard-entries';
import * as m005 from './005-app-job-template';
import * as m006 from './006-fastrans-client-key';

/**
 * Every migration, in order. Written once with Kysely's schema builder so they run on SQLite and PostgreSQL alike;
 * never edit one that has shipped, add the next.
 */
export const migrations: Record<string, Migration> = {
  '001-catalog': m001,
  '002-identity': m002,
  '003-model-files-and-preferences': m003,
  '004-dashboard-entries': m004,
  '005-app-job-template': m005,
  '006-fastrans-client-key': m006,
};
