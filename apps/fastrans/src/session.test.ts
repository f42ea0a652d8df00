import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { Session } from './session';

/**
 * A client that stops (the `stop` command, SIGTERM, the desktop's quit) tells the portal, so that the user's page
 * stops counting on it at once; a portal that does not answer does not hold the exit.
 */
describe('session: stopping', () => {
  const calls: { action: string; client?: string; token: string | null }[] = [];
  let answerStop = true;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const b = JSON.parse(body || '{}') as { id: number; module: string; action: string; client?: string };
      const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
      calls.push({ action: `${b.module}/${b.action}`, client: b.client, token });
      if (b.action === 'stop' && !answerStop) return; // never answers
      const data =
        b.action === 'login'
          ? {
              token: 'web-token',
              clusterId: '11250',
              clusterUserName: 'demo',
              homePath: '/public/home/demo',
              expiresAt: Date.now() + 3_600_000,
            }
          : b.action === 'list'
            ? { servers: [{ url: '/efile/11250', clusterId: '11250' }] }
            : null;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: b.id, code: '0', msg: '', data }));
    });
  });
  const tmp = makeTempDir('fastrans-session-');
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    tmp.cleanup();
  });

  it('tells the portal it stops, as this client, keeping its login; and gives up on a silent portal', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const portal = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const who = { client: 'client-one', label: 'laptop' };
    const s = new Session(tmp.dir, who);
    await s.login(portal, 'day-token');
    await s.close();
    const actions = calls.map((c) => c.action).filter((a) => a !== 'client/heartbeat');
    expect(actions).toEqual(['user/login', 'server/list', 'client/stop']);
    expect(calls.at(-1)).toMatchObject({ client: 'client-one', token: 'web-token' });
    // Not a logout: the login stays for the next start.
    expect(s.info?.clusterUserName).toBe('demo');

    answerStop = false;
    const again = new Session(tmp.dir, who);
    await again.login(portal, 'day-token');
    const t0 = Date.now();
    await again.close(300);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(calls.at(-1)?.action).toBe('client/stop');
  });
});
