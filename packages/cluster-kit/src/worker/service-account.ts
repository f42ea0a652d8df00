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
