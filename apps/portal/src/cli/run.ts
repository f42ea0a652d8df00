import { parseArgs } from 'node:util';
import { isAppError } from '@hpc/server-kit';
import { readPortalConfig } from '../config';
import { openPortalDeps, type PortalDeps } from '../deps';
import { identityServicesOf, seedIdentity, type IdentityServices } from '../features/identity';
import { accountCommands } from './account.command';
import { clusterCommands } from './cluster.command';
import { UsageError, type Command, type CommandContext, type ParsedArgs } from './command';
import { keyCommands } from './keys.command';
import { userCommands } from './user.command';

/**
 * The admin commands (docs/OPERATIONS.md). They read the same environment as the portal (DATA_DIR, DATABASE_URL, …)
 * and change data through the same services as the routes and the demo seed, so every rule (validation,
 * uniqueness, session revocation) holds.
 */

const demoCommand: Command = {
  name: 'demo seed',
  usage: 'demo seed',
  summary: 'create the demo users, clusters and accounts on a database that has no user yet',
  async run({ services, deps, out }) {
    const before = await services.users.count();
    if (before > 0) return out(`the database has ${before} user(s): nothing seeded`);
    await seedIdentity(deps);
    out('demo data created');
  },
};

const migrateCommand: Command = {
  name: 'db migrate',
  usage: 'db migrate',
  summary: 'bring the database schema up to date (run once before starting the portal instances)',
  // Opening the database (before any command runs) migrated it.
  run: async ({ out }) => out('database migrated'),
};

const commands: Command[] = [
  migrateCommand,
  ...userCommands,
  ...clusterCommands,
  ...accountCommands,
  ...keyCommands,
  demoCommand,
];

function help(): string {
  return [
    'Usage: npm run admin -- <command> [arguments] [options]',
    '',
    ...commands.map((c) => `  ${c.usage}\n      ${c.summary}`),
    '',
    "The environment is the portal's: DATA_DIR, DATABASE_URL, REDIS_URL, SIGNING_KEYS_DIR, …",
  ].join('\n');
}

export interface AdminIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const consoleIo: AdminIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

/**
 * Runs one admin command with the given environment; returns the exit code (0 done, 1 refused by a rule, 2 usage
 * error). The `admin.ts` entry calls it with process.argv and process.env; tests call it in-process.
 */
export async function runAdmin(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: AdminIo = consoleIo,
): Promise<number> {
  try {
    return await dispatch(argv, env, io);
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e)) {
      io.err(`error: ${e.message}\n\n${help()}`);
      return 2;
    }
    io.err(`error: ${isAppError(e) ? `${e.message} (code ${e.code})` : String(e)}`);
    return 1;
  }
}

async function dispatch(
  argv: string[],
  env: Record<string, string | undefined>,
  io: AdminIo,
): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.out(help());
    return argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' ? 0 : 2;
  }
  const { positionals, values } = parseArgs({
    args: argv.slice(2),
    allowPositionals: true,
    strict: true,
    options: Object.fromEntries<{ type: 'string' | 'boolean' }>([
      ...(command.valueOptions ?? []).map((o) => [o, { type: 'string' as const }] as const),
      ...(command.flagOptions ?? []).map((o) => [o, { type: 'boolean' as const }] as const),
    ]),
  });
  const parsed = { positionals, options: values as ParsedArgs['options'] };
  const config = { ...readPortalConfig(env), SEED_DEMO: false, LOG_LEVEL: 'silent' };
  const out = io.out;
  if (command.noDatabase) {
    // Key commands work on the key folder alone, even where the database is out of reach.
    const none = <T extends object>() =>
      new Proxy({} as T, {
        get: () => {
          throw new Error('this command has no database');
        },
      });
    await command.run({ config, deps: none<PortalDeps>(), services: none<IdentityServices>(), out }, parsed);
    return 0;
  }
  const deps = await openPortalDeps(config);
  try {
    const ctx: CommandContext = { config, deps, services: identityServicesOf(deps), out };
    await command.run(ctx, parsed);
  } finally {
    await deps.close();
  }
  return 0;
}
