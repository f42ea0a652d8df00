import { call, type CallTable } from '@hpc/cluster-kit';
import { openPartialCall } from './partial-call';
import { openReadCall, openZipCall } from './read-calls';
import { readSmallCall } from './read-small-call';
import { storeSmallCall } from './small-files-call';
import type { UserFs } from './types';

/** Safe to send again to a new worker when the first died: each re-resolves its paths and refuses to replace. */
const plain = () => call.plain({ repeatable: true });

/**
 * Every call of `UserFs` for unix mode's wire (issue 23 §1), declared once: the front end's proxy (worker-client.ts)
 * and the worker's dispatcher (worker-main.ts) are derived from it, and `LocalUserFs` implements each call on both
 * sides of it (single mode in this process, unix mode in the user's worker). Adding a call is a line here and its
 * method in `LocalUserFs`; a call left out of the table does not compile in worker-client.ts. `close` is not a
 * call: it stops the front end's own workers.
 */
export const userFsCalls = {
  resolve: plain(),
  list: plain(),
  mkdir: plain(),
  touch: plain(),
  remove: plain(),
  rename: plain(),
  exist: plain(),
  tree: plain(),
  access: plain(),
  homeUsage: plain(),
  writeFile: plain(),
  ensureDir: plain(),
  finalizePartial: plain(),
  // An upload recorded before its owner was names no user: in unix mode its partial stays for the admin.
  unlink: call.plain({ repeatable: true, skipWithoutUser: true }),
  preparePartial: plain(),
  fileSize: plain(),
  sha256: plain(),
  identify: plain(),
  readFile: call.download(),
  walk: call.lines(),
  transfer: call.progress(),
  writeStream: call.upload(1),
  extractTar: call.upload(1),
  // As unlink: a staging row names its user (the sweep runs as them); one without a user is left for the admin.
  sweepStaging: call.plain({ repeatable: true, skipWithoutUser: true }),
  openRead: openReadCall,
  openZip: openZipCall,
  openPartial: openPartialCall,
  storeSmall: storeSmallCall,
  readSmall: readSmallCall,
} satisfies CallTable<UserFs>;
