import http from 'node:http';

/**
 * A proxy in front of the portal for resume tests: it counts the client's calls and, while `hold` is on, keeps every
 * range after the first `allow` unanswered (never forwarded). A client stopped then has exactly `allow` ranges
 * stored on the server, whatever the machine's speed.
 */
export async function holdProxy(target: string, allow: number) {
  const counts = { range: 0, status: 0 };
  const state = { hold: true };
  const held: http.ServerResponse[] = [];
  // No keep-alive upstream: closing the proxy leaves no connection open on the portal.
  const agent = new http.Agent({ keepAlive: false });
  const server = http.createServer((req, res) => {
    const p = req.url ?? '';
    if (p.includes('/fastrans/status.action')) counts.status++;
    if (p.includes('/fastrans/range.action')) {
      counts.range++;
      if (state.hold && counts.range > allow) {
        held.push(res);
        req.resume();
        return;
      }
    }
    const up = http.request(target + p, { method: req.method, headers: req.headers, agent }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    counts,
    /** Lets everything through from now on and resets the counters. */
    release() {
      for (const r of held) r.destroy();
      state.hold = false;
      counts.range = 0;
      counts.status = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
