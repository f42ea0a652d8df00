/**
 * The yardstick of bench/catalog (issue 14 §8): a bare Fastify server, in its own process like the portal, that
 * answers the benchmark's call with a constant — the very bytes the portal answered for the same question. What
 * the portal costs beyond this is its own work: hooks, the cache look-up, serialization, logging.
 * Input: one JSON argument ({ port, path, body }); prints "ready" once listening.
 */
import Fastify from 'fastify';

const input = JSON.parse(process.argv[2] ?? '{}') as { port: number; path: string; body: string };
const body = Buffer.from(input.body);
const app = Fastify();
app.post(input.path, async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ port: input.port, host: '127.0.0.1' });
process.stdout.write('ready\n');
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void app.close().then(() => process.exit(0)));
