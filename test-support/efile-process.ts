/**
 * One efile instance in its own process, for tests and benches that need a real process (to SIGKILL it, to measure
 * its CPU and memory): started from the esbuild bundle as operators run it (build it first with
 * scripts/build-servers.mjs), and ready when it says over IPC where it listens, not after a guessed delay. The bundle starts
 * without compiling anything, so a restart costs about the same on a loaded machine as on an idle one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endsWithThisProcess } from './child-process';

export const EFILE_BUNDLE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../apps/efile/dist/server.js',
);

export interface EfileProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port>, the port the server reported (EFILE_PORT 0 picks a free one). */
  base: string;
  /** Settles when the process has exited, however it ended (listened for from the start). */
  exited: Promise<void>;
  /** Sends `signal` (SIGTERM: a clean close) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface EfileProcessOptions {
  /** EFILE_* settings; EFILE_HOST defaults to 127.0.0.1, EFILE_PORT to 0, LOG_LEVEL to warn (no line per request). */
  env: Record<string, string | undefined>;
  /** Another build (a .ts entry runs under tsx); default {@link EFILE_BUNDLE}. */
  entry?: string;
  /** Node flags before the entry, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** Where the server's log goes once it is ready: this process's stdout, or nowhere (default). */
  log?: 'inherit' | 'discard';
}

export async function startEfileProcess(opts: EfileProcessOptions): Promise<EfileProcess> {
  const entry = opts.entry ?? EFILE_BUNDLE;
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry],
    {
      env: { ...process.env, EFILE_HOST: '127.0.0.1', EFILE_PORT: '0', LOG_LEVEL: 'warn', ...opts.env },
      // The IPC channel carries the one message that says where it listens (server.ts).
      stdio: ['ignore', opts.log === 'inherit' ? 'inherit' : 'ignore', 'inherit', 'ipc'],
    },
  );
  endsWithThisProcess(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const base = await new Promise<string | undefined>((resolve) => {
    child.on('message', (m: { listening?: string }) => {
      if (m.listening) resolve(m.listening.replace('://localhost:', '://127.0.0.1:'));
    });
    void exited.then(() => resolve(undefined));
  });
  if (!base) throw new Error(`${entry} exited before it listened`);
  // The channel stays open: a closed one would end the child's `process.send`, and nothing else uses it.
  return { child, base, exited, stop };
}
