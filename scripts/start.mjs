// `npm start`: build what is missing or stale, then run the all-in-one portal (portal + one efile per demo cluster).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build.mjs';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await buildAll();
// File I/O, zip and crypto share libuv's pool (DESIGN.md §8): 4 threads are too few for parallel transfers, and a
// fast-transfer upload's small files are as fast as the fdatasyncs that run at once (DECISIONS.md, "The thread pool: 64").
const env = { UV_THREADPOOL_SIZE: '64', ...process.env };
const child = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, path.join(root, 'apps/all-in-one/dist/main.js')],
  {
    stdio: 'inherit',
    env,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
