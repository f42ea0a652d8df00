/**
 * Starts one shell service alone (scaled-out mode): `node apps/eshell/dist/server.js` with ESHELL_* variables
 * (docs/OPERATIONS.md, "E-Shell"). It runs as its own account (never root is needed: it only runs `ssh` and
 * `ssh-keygen` and reads the CA key).
 */
import { readEshellConfig } from './config';
import { buildEshell } from './app';

const config = readEshellConfig();
const { app } = await buildEshell(config);
const listening = await app.listen({ port: config.ESHELL_PORT, host: config.ESHELL_HOST });
// A parent that started this process with an IPC channel (tests, benches) learns the address.
process.send?.({ listening });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
