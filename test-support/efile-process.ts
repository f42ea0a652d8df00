/**
 * One efile instance in its own process, for tests and benches that need a real process (to SIGKILL it, to measure
 * its CPU and memory): started from the esbuild bundle as operators run it (build it first with
 * scripts/build-servers.mjs), and ready when it logs that it listens, not after a guessed delay. The bundle starts
 * without compiling anything, so a restart costs about the same on a loaded machine as on an idle one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

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
  /** EFILE_* settings; EFILE_HOST defaults to 127.0.0.1, EFILE_PORT to 0, LOG_LEVEL to info (the ready line). */
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
      env: { ...process.env, EFILE_HOST: '127.0.0.1', EFILE_PORT: '0', LOG_LEVEL: 'info', ...opts.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const lines = readline.createInterface({ input: child.stdout });
  let base: string | undefined;
  try {
    for await (const line of lines) {
      base = /Server listening at (http:\/\/[\d.]+:\d+)/.exec(line)?.[1];
      if (base) break;
    }
  } finally {
    // What the server logs later still has to be read, or a full pipe would block it.
    if (opts.log === 'inherit') child.stdout.pipe(process.stdout);
    else child.stdout.resume();
  }
  if (!base) throw new Error(`${entry} exited before it listened (is LOG_LEVEL above info?)`);
  return { child, base, exited, stop };
}
