import type { TFunction } from 'i18next';
import type { ShellEndReason } from '@hpc/contracts';

/** The status ssh exits with when its connection fails or is lost (ssh(1), EXIT STATUS); a shell's own is 0–254. */
export const SSH_FAILED = 255;

/**
 * Why a session ended, in words. A shell that exited with a failure status says which (`exit 3`); 255 is ssh's own
 * status for a connection that broke or never came up, so it says so: "the shell exited with status 255" sent users
 * looking for a 255 in their own scripts.
 */
export function endText(t: TFunction, reason: ShellEndReason, code: number | null): string {
  if (reason !== 'exit' || !code) return t(`eshell.end.${reason}`);
  return code === SSH_FAILED ? t('eshell.end.lost', { code }) : t('eshell.end.exitCode', { code });
}

/**
 * How loud the end's notice is: a warning where the session broke rather than ended (the connection lost, a
 * failure of the service, the right to a shell taken away), information where it ended as sessions do (the shell
 * exited, whatever its status, idle, closed, replaced by a limit).
 */
export function endTone(reason: ShellEndReason, code: number | null): 'info' | 'warning' {
  if (reason === 'exit') return code === SSH_FAILED ? 'warning' : 'info';
  return reason === 'error' || reason === 'revoked' || reason === 'rights' ? 'warning' : 'info';
}
