// `npm run start:scaled`: the scaled-out layout on this machine (docs/OPERATIONS.md, "Scaled out on one machine"):
// migrations, 2 efile processes per demo cluster, 2 portal processes and Debian's nginx on PORT in front of them, on
// the PostgreSQL of DATABASE_URL and the Redis of REDIS_URL. Ctrl-C stops everything.
import { buildAll } from './build.mjs';
import { startScaled } from './scaled-layout.mjs';

const missing = ['DATABASE_URL', 'REDIS_URL'].filter((v) => !process.env[v]);
if (missing.length > 0) {
  console.error(
    `start:scaled needs ${missing.join(' and ')}: the scaled-out instances share their state through PostgreSQL and Redis.\n` +
      'For example:\n' +
      '  DATABASE_URL=postgres://postgres@127.0.0.1:5432/hpc REDIS_URL=redis://127.0.0.1:6379 npm run start:scaled\n' +
      '(`npm start` runs the all-in-one portal, which needs neither.)',
  );
  process.exit(2);
}

const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a port number, not ${process.env.PORT}`);
  process.exit(2);
}

await buildAll();
let layout;
try {
  layout = await startScaled({
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    port,
    host: process.env.HOST ?? '0.0.0.0',
    publicUrl: process.env.PUBLIC_URL,
    runDir: process.env.SCALED_RUN_DIR,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', UV_THREADPOOL_SIZE: '64' },
  });
} catch (e) {
  console.error(`start:scaled failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}

const efiles = Object.values(layout.efiles).flat();
console.log(`
  HPC portal (scaled out): ${layout.url}/
  portals: ${layout.portals.map((p) => `127.0.0.1:${p.port}`).join(', ')}
  efile:   ${efiles.map((e) => `${e.path} -> 127.0.0.1:${e.port}`).join(', ')}
  logs, nginx configuration and data: ${layout.runDir}
`);

let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  await layout.stop();
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(0));
// A process that dies on its own is reported; nginx dying ends the layout (nothing answers on PORT any more).
for (const p of [...layout.portals, ...efiles, layout.nginx]) {
  p.child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${p.name} exited (${signal ?? code}); see ${layout.runDir}/logs`);
    if (p === layout.nginx) void stop(1);
  });
}
