/**
 * The load generator of bench/jobs, in its own process so that it does not share the service's event loop.
 * Input: one JSON argument ({ url, path, token, connections, duration }); output: one JSON line of results.
 */
import autocannon from 'autocannon';
import { loadSummary } from '../bench-kit';

const input = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  path: string;
  token: string;
  connections: number;
  duration: number;
};
const result = await autocannon({
  url: input.url,
  connections: input.connections,
  duration: input.duration,
  requests: [{ method: 'GET', path: input.path, headers: { token: input.token } }],
});
process.stdout.write(JSON.stringify(loadSummary(result)) + '\n');
