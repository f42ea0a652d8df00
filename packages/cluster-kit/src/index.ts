/**
 * What the per-cluster services (efile, jobs, E-Shell) share (issue 23 §1): the rules for the accounts a worker may
 * run as, the user-worker machinery (root launcher, worker host, the front end's side, connection hand-off), the
 * worker wire derived from one call table, the per-cluster token check and the portal it trusts, the path resolver of the user's roots, and
 * the all-in-one demo's homes.
 * README.md says how a service uses each.
 */
export * from './accounts/accounts';
export * from './paths/errno';
export * from './paths/path-resolver';
export * from './paths/demo-home';
export * from './wire/wire-format';
export * from './wire/call-table';
export * from './wire/call-client';
export * from './wire/call-server';
export * from './wire/handle-store';
export * from './worker/handoff';
export { workerEnvironment, type LauncherSettings } from './worker/launcher';
export * from './worker/worker-host';
export * from './worker/worker-entry';
export * from './worker/user-workers';
export * from './worker/worker-bundle';
export * from './auth/owner-rights';
export * from './auth/token-check';
export * from './auth/portal-trust';
export * from './worker/service-account';
