import type { AppServer } from '@hpc/server-kit';
import { lookupAccount, type Account } from '../accounts/accounts';

/** The account a service's HTTP front end will run as (`<SERVICE>_SERVICE_USER`), or null for "stay as started". */
export function serviceAccount(name: string): Account | null {
  if (!name) return null;
  const a = lookupAccount(name);
  if (!a) throw new Error(`the service user ${name} does not exist`);
  return a;
}

/**
 * Unix mode: once the port is bound and the root launcher started, the front end never needs root again and never
 * touches a user's file itself, so it becomes the service account for good (groups, gid, uid; then checked).
 */
export function becomeServiceAccount(a: Account): void {
  (process as unknown as { initgroups(user: string, gid: number): void }).initgroups(a.name, a.gid);
  process.setgid!(a.gid);
  process.setuid!(a.uid);
  if (process.getuid!() !== a.uid || process.geteuid!() !== a.uid || process.getegid!() !== a.gid)
    throw new Error(`could not become ${a.name}`);
}

/**
 * Runs a service's front end started alone (`node apps/<service>/dist/server.js`): listens, tells a parent that
 * started it with an IPC channel (tests, benches) the address without depending on the log level (port 0 picks a
 * free one; without a channel nothing happens), then becomes `serviceUser` for good when one is given (unix mode:
 * the port is bound and the root launcher started by now), and closes on SIGINT or SIGTERM.
 */
export async function serveAlone(
  app: AppServer,
  opts: { port: number; host: string; serviceUser?: string },
): Promise<void> {
  const listening = await app.listen({ port: opts.port, host: opts.host });
  process.send?.({ listening });
  const service = serviceAccount(opts.serviceUser ?? '');
  if (service) {
    becomeServiceAccount(service);
    app.log.info({ uid: service.uid }, `serving as ${service.name}`);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
}
