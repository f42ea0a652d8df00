import http from 'node:http';

/**
 * A proxy in front of the portal for resume tests: it counts the client's calls and, while `hold` is on, keeps every
 * range after the first `allow` unanswered (never forwarded). A client stopped then has exactly `allow` ranges
 * stored on the server, whatever the machine's speed. `target` may be given late (a function): a portal whose
 * PUBLIC_URL is this proxy starts after it.
 */
export async function holdProxy(target: string | (() => string), allow: number) {
  const base = () => (typeof target === 'string' ? target : target());
  const counts = { range: 0, status: 0, rangeDone: 0, read: 0, sha256: 0 };
  const state = { hold: true, down: false, corruptReads: 0 };
  const held: http.ServerResponse[] = [];
  // No keep-alive upstream: closing the proxy leaves no connection open on the portal.
  const agent = new http.Agent({ keepAlive: false });
  const server = http.createServer((req, res) => {
    const p = req.url ?? '';
    if (state.down) {
      res.destroy();
      return;
    }
    if (p.includes('/fastrans/status.action')) counts.status++;
    if (p.includes('/fastrans/sha256.action')) counts.sha256++;
    if (p.includes('/fastrans/read.action')) counts.read++;
    if (p.includes('/fastrans/range.action')) {
      counts.range++;
      if (state.hold && counts.range > allow) {
        held.push(res);
        req.resume();
        return;
      }
    }
    const up = http.request(base() + p, { method: req.method, headers: req.headers, agent }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      if (p.includes('/fastrans/read.action') && state.corruptReads > 0) {
        // A bit flipped on the way (a bad link, a broken middlebox): the bytes change, the headers do not.
        state.corruptReads--;
        let first = true;
        r.on('data', (c: Buffer) => {
          if (first && c.length > 0) {
            first = false;
            c[0] = c[0]! ^ 0x01;
          }
          res.write(c);
        });
        r.on('end', () => res.end());
        return;
      }
      r.pipe(res);
      if (p.includes('/fastrans/range.action')) r.on('end', () => counts.rangeDone++);
    });
    up.on('error', () => res.destroy());
    // A dropped client drops its upstream request too (the portal must not wait for a body that never comes).
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    counts,
    /** Flips a bit in the body of the next `n` ranged reads (downloads). */
    corrupt(n: number) {
      state.corruptReads = n;
    },
    /** Like a killed server: every connection is dropped until `up`. */
    down() {
      state.down = true;
      for (const r of held) r.destroy();
      server.closeAllConnections();
    },
    up() {
      state.down = false;
      state.hold = false;
      counts.range = 0;
      counts.status = 0;
      counts.rangeDone = 0;
    },
    /** Lets everything through from now on and resets the counters. */
    release() {
      for (const r of held) r.destroy();
      state.hold = false;
      counts.range = 0;
      counts.status = 0;
      counts.rangeDone = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
