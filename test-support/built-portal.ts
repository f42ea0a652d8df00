import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endsWithThisProcess } from './child-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'apps/all-in-one/dist/main.js');

export interface RunningPortal {
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** A free TCP port: PORT=0 is not reported reliably by the server, so we pick one and pass it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`portal exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/image-center/image/acceleratorType/list`, {
        signal: AbortSignal.timeout(2_000),
      });
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`portal did not answer within ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts the BUILT all-in-one portal (browser tests, benches) (`node scripts/build.mjs` first) on a free port with a fresh DATA_DIR, so it
 * seeds its demo data, and waits until it answers. `stop()` ends it and removes the data.
 */
export async function startPortal(env: Record<string, string> = {}): Promise<RunningPortal> {
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`node scripts/build.mjs\` first`);
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `node scripts/build.mjs` first');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-e2e-data-'));
  let log = '';
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  endsWithThisProcess(child);
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(url, child, () => log, 90_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, dataDir, output: () => log, stop };
}
