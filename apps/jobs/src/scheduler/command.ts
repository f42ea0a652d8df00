import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CommandOptions {
  /** Written to the command's stdin (a script given as text). */
  input?: string;
  /** The whole environment of the command (never the service's own: it may hold secrets). */
  env?: Record<string, string>;
  /** Where it runs (sbatch gives its folder to the job as SLURM_SUBMIT_DIR); else the service's own. */
  cwd?: string;
  timeoutMs?: number;
}

/** Runs one scheduler command; the adapter's only way to the scheduler, replaced by recorded output in unit tests. */
export type RunCommand = (cmd: string, args: string[], opts?: CommandOptions) => Promise<CommandResult>;

/**
 * Spawns `cmd` without a shell (every argument one argv entry: nothing a user types is ever interpreted), collects
 * its output and kills it at the deadline. A command that cannot be started answers code null with the reason.
 */
export const runCommand: RunCommand = (cmd, args, opts = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, {
      env: opts.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
      cwd: opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    let failed: string | null = null;
    child.on('error', (e) => {
      failed = e.message;
    });
    child.stdin.on('error', () => undefined); // a command that exits before reading its input
    child.stdin.end(opts.input ?? '');
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      resolve({
        code: failed ? null : code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: failed ?? (signal ? `${stderr}\n${cmd} was stopped (${signal}): no answer in time` : stderr),
      });
    });
  });
