import { buildAllInOne } from './all-in-one';

/** `npm start` runs this (built to dist/main.js): the all-in-one portal on PORT. */
const { app, config } = await buildAllInOne();
await app.listen({ port: config.PORT, host: config.HOST });

const shown = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
console.log(`\n  HPC portal: http://${shown}:${config.PORT}/\n  data: ${config.dataDir}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
