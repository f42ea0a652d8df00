/// <reference types="node" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isServiceDiscoveryError } from './service-errors';
import { createServiceDiscovery } from './service-discovery';

/** A real file-service health endpoint on loopback answering like apps/efile, counting the checks it answers. */
async function healthServer() {
  let checks = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/check.action') {
      checks++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ check_result: 'ok', clusterId: '11250' }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    checks: () => checks,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let a: Awaited<ReturnType<typeof healthServer>>;
let b: Awaited<ReturnType<typeof healthServer>>;
beforeAll(async () => {
  [a, b] = await Promise.all([healthServer(), healthServer()]);
});
afterAll(async () => {
  await Promise.allSettled([a.stop(), b.stop()]);
});

it('moves to the other real instance when the one in use stops', async () => {
  const cluster = {
    clusterId: '11250',
    centerName: '合肥先进计算中心',
    params: { efileUrl: JSON.stringify([a, b].map((s) => ({ url: s.url, enable: 'true' }))) },
  };
  const discovery = createServiceDiscovery({ fetch: globalThis.fetch, healthTimeoutMs: 2_000 });
  const userId = 2; // 2 mod 2 = 0: this user starts at instance a.

  expect(await discovery.resolve(cluster, 'efile', userId)).toBe(a.url);
  expect(await discovery.resolve(cluster, 'efile', userId)).toBe(a.url);
  expect([a.checks(), b.checks()]).toEqual([1, 0]); // the second answer came from the cache

  await a.stop();
  // A call to a failed, so the caller drops the cached instance; the next resolve finds b.
  discovery.invalidate('11250', 'efile', userId);
  expect(await discovery.resolve(cluster, 'efile', userId)).toBe(b.url);
  expect(b.checks()).toBe(1);

  await b.stop();
  discovery.invalidate('11250', 'efile', userId);
  const error = await discovery.resolve(cluster, 'efile', userId).catch((e: unknown) => e);
  expect(isServiceDiscoveryError(error) && error.kind).toBe('AccessError');
});
