import { readPortalConfig } from './config';
import { buildPortal } from './app';

/** Starts the portal alone (scaled-out mode); the all-in-one start is apps/all-in-one. */
const config = readPortalConfig();
const { app } = await buildPortal(config);
await app.listen({ port: config.PORT, host: config.HOST });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
