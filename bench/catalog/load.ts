/**
 * The load generator of bench/catalog, run as its own process so that it does not share the server's event loop.
 * Input: one JSON argument ({ url, path, connections, duration, bodies }); output: one JSON line of results.
 * Request bodies rotate through `bodies` (one body = the same question every time).
 */
import autocannon from 'autocannon';
import { loadSummary } from '../bench-kit';

interface LoadInput {
  url: string;
  path: string;
  connections: number;
  duration: number;
  bodies: unknown[];
}

const input = JSON.parse(process.argv[2] ?? '{}') as LoadInput;
const bodies = input.bodies.map((b) => JSON.stringify(b));
let next = 0;
const result = await autocannon({
  url: input.url,
  connections: input.connections,
  duration: input.duration,
  requests: [
    {
      method: 'POST',
      path: input.path,
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
    },
  ],
});
process.stdout.write(JSON.stringify({ ...loadSummary(result), timeouts: result.timeouts }) + '\n');
