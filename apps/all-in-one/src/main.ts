import { createServer } from '@hpc/server-kit';
import { openPortalDeps, readPortalConfig, registerPortal, spaIndexReader } from '@hpc/portal';

/**
 * The all-in-one start (DESIGN.md §2): one process, the portal on PORT serving the SPA, and an efile instance for
 * each demo cluster mounted under /efile/<clusterId>/. The one place that composes portal and efile.
 */
const config = readPortalConfig();
const app = createServer({
  logLevel: config.LOG_LEVEL,
  trustProxy: config.TRUST_PROXY,
  spaIndexHtml: spaIndexReader(config),
});
const deps = await openPortalDeps(config);
app.addHook('onClose', () => deps.close());
await registerPortal(app, deps);
await app.listen({ port: config.PORT, host: config.HOST });

const shown = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
console.log(`\n  HPC portal: http://${shown}:${config.PORT}/\n  data: ${config.dataDir}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
