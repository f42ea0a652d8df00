/**
 * Starts one shell service alone (scaled-out mode): `node apps/eshell/dist/server.js` with ESHELL_* variables
 * (docs/OPERATIONS.md, "E-Shell"). It runs as its own account (never root is needed: it only runs `ssh` and
 * `ssh-keygen` and reads the CA key).
 */
import { serveAlone } from '@hpc/cluster-kit';
import { readEshellConfig } from './config';
import { buildEshell } from './app';

const config = readEshellConfig();
const { app } = await buildEshell(config);
await serveAlone(app, { port: config.ESHELL_PORT, host: config.ESHELL_HOST });
