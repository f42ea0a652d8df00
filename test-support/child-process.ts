import type { ChildProcess } from 'node:child_process';

/**
 * Kills `child` (SIGKILL) when this process exits, however it ends (an uncaught error, `process.exit`), unless the
 * child ended first. A test or bench that died used to leave its servers running: one left efile holding a bench's
 * loop-mounted file system busy, with the deleted image's 30 GB, until it was found and killed by hand.
 */
export function endsWithThisProcess(child: ChildProcess): void {
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
}
