import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import Database from 'better-sqlite3';
import pg from 'pg';
import fs from 'node:fs';
import path from 'node:path';

export type DbKind = 'sqlite' | 'postgres';

export interface DbOptions {
  /** `postgres://…` for PostgreSQL; otherwise a SQLite file path (created with its folder). */
  url: string;
  /** PostgreSQL only: the schema to use (created if missing). Tests give each suite its own. */
  schema?: string;
}

export interface Db<T> {
  kysely: Kysely<T>;
  kind: DbKind;
  /** The PostgreSQL schema in use, if one was given. */
  schema?: string;
  close(): Promise<void>;
}

/**
 * Opens the database behind a Kysely instance. SQLite runs in WAL mode with a busy timeout so that readers never
 * block the writer; PostgreSQL uses a small pool and, when `schema` is given, pins `search_path` to it.
 */
export async function openDb<T>(opts: DbOptions): Promise<Db<T>> {
  if (/^postgres(ql)?:\/\//.test(opts.url)) {
    const schema = opts.schema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
    if (schema) {
      const admin = new pg.Client({ connectionString: opts.url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await admin.end();
    }
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // int8 (COUNT, SUM, bigint columns) arrives as a string by default; our counts fit in a double.
    pg.types.setTypeParser(20, (v) => Number(v));
    const kysely = new Kysely<T>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, kind: 'postgres', schema, close: () => kysely.destroy() };
  }
  fs.mkdirSync(path.dirname(path.resolve(opts.url)), { recursive: true });
  keepToOwner(opts.url);
  const database = new Database(opts.url);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  const kysely = new Kysely<T>({ dialect: new SqliteDialect({ database }) });
  return { kysely, kind: 'sqlite', close: () => kysely.destroy() };
}

/**
 * A SQLite file holds what no other account of the machine may read: password hashes, share codes, CSRF secrets.
 * It is made, or kept, readable by its owner alone; SQLite gives its `-wal` and `-shm` files the database's mode
 * when it makes them, and those left from before are narrowed too. The folder's mode is not enough: the names are
 * known, and in unix mode `DATA_DIR` must be searchable by every account (OPERATIONS.md). Found from outside
 * (2026-12-01): any local account read every share's extraction code from a 0644 `efile-<cluster>.db`.
 */
function keepToOwner(file: string) {
  fs.closeSync(fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    let mode: number;
    try {
      mode = fs.statSync(f).mode & 0o777;
    } catch {
      continue;
    }
    if (mode & 0o077) fs.chmodSync(f, mode & 0o700);
  }
}

/** The advisory lock between migrations in a schema of their own and `dropSchema` (any fixed number). */
const SCHEMA_DROP_LOCK = 730_421_001;

/**
 * Runs the given migrations (written once with Kysely's schema builder for both databases) up to the latest, in the
 * database's own PostgreSQL schema when it has one. It takes the opened `Db`, not a bare Kysely, because the schema
 * must not be forgettable: without it Kysely finds another schema's migration tables (a suite beside it, or one a
 * killed test left behind) and skips creating its own, and the migration then fails on a missing lock table.
 */
export async function migrate<T>(
  db: Pick<Db<T>, 'kysely' | 'schema'>,
  migrations: Record<string, Migration>,
): Promise<void> {
  const run = async (kysely: Kysely<T>) => {
    const migrator = new Migrator({
      db: kysely,
      provider: { getMigrations: async () => migrations },
      ...(db.schema ? { migrationTableSchema: db.schema } : {}),
    });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed) {
      throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
    }
  };
  if (!db.schema) return run(db.kysely);
  // The migrator's look at the tables reads every schema of the database by name (`has_schema_privilege`), and
  // fails on one dropped at that moment: a test suite's schema, dropped by its cleanup while another suite
  // migrates (seen once in CI: `schema "t_…" does not exist`). Migrations in a schema of their own hold this lock
  // shared, `dropSchema` takes it alone; an advisory lock belongs to a session, hence one connection throughout.
  await db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock_shared(${SCHEMA_DROP_LOCK})`.execute(conn);
    try {
      await run(conn);
    } finally {
      await sql`select pg_advisory_unlock_shared(${SCHEMA_DROP_LOCK})`.execute(conn);
    }
  });
}

/** Drops a PostgreSQL schema created for a test suite, never while a migration looks at the schemas. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [SCHEMA_DROP_LOCK]);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    // Ending the session releases its lock.
    await admin.end();
  }
}

export { sql };
