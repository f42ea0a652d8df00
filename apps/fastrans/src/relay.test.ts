import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { clientWho } from './config';
import { Relay } from './relay';

/**
 * The relay's loop against a portal stand-in: a poll the portal refuses (its web login of the client ended) ends the
 * loop at once and asks the session to renew, instead of polling every 8 s with a dead token.
 */
describe('relay', () => {
  let polls = 0;
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/fastrans/relay/poll')) polls++;
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push(JSON.parse(body || '{}') as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ code: '1000', msg: 'Not logged in to the fast-transfer web server', data: null }),
      );
    });
  });
  const tmp = makeTempDir('fastrans-relay-');
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    tmp.cleanup();
  });

  it('stops polling and asks for a new login when the portal refuses its token', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const portal = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const logs: string[] = [];
    let refused = 0;
    const renewed = new Promise<void>((resolve) => {
      const relay = new Relay({
        handle: async () => ({ id: 0, code: '0', msg: '', data: null }),
        log: (m) => logs.push(m),
        onRefused: (token) => {
          expect(token).toBe('web-token-secret');
          refused++;
          resolve();
        },
      });
      relay.start(portal, 'web-token-secret');
    });
    await renewed;
    // Give a loop that did not stop the time of its first backoff (1 s) to poll again.
    await new Promise((r) => setTimeout(r, 1_500));
    expect({ refused, polls }).toEqual({ refused: 1, polls: 1 });
    expect(logs.join('\n')).toContain('1000');
    expect(logs.join('\n')).not.toContain('web-token-secret');
  });

  it('runs the requests a poll brought back after a new login started another loop', async () => {
    // A portal whose first poll (the first login's) waits until the test lets it return a request; later polls
    // (the new login's) wait until the test ends. Answers are recorded with the token they came with.
    // In a holder: TypeScript does not see the server's callback set it.
    const held: { release: (() => void) | null } = { release: null };
    const answers: { token: string; body: unknown }[] = [];
    let firstPoll = true;
    const portalOf = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
        const reply = (data: unknown) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ code: '0', msg: '', data }));
        };
        if (req.url?.startsWith('/fastrans/relay/answer')) {
          answers.push({ token, body: JSON.parse(body) });
          reply(null);
        } else if (firstPoll) {
          firstPoll = false;
          held.release = () =>
            reply({ seq: 1, requests: [{ n: 1, m: { id: 1, action: 'check', sign: 's' } }] });
        }
        // Any later poll hangs until the server closes.
      });
    });
    await new Promise<void>((r) => portalOf.listen(0, '127.0.0.1', r));
    const portal = `http://127.0.0.1:${(portalOf.address() as { port: number }).port}`;
    const handled: unknown[] = [];
    const relay = new Relay({
      handle: async (m) => {
        handled.push(m);
        return { id: 0, code: '0', msg: '', data: { sign: 's' } };
      },
      log: () => undefined,
      onRefused: () => undefined,
    });
    try {
      relay.start(portal, 'first-login');
      while (!held.release) await new Promise((r) => setTimeout(r, 10));
      relay.start(portal, 'second-login');
      held.release();
      while (answers.length === 0) await new Promise((r) => setTimeout(r, 10));
      expect(handled).toEqual([{ id: 1, action: 'check', sign: 's' }]);
      expect(answers).toEqual([
        {
          token: 'first-login',
          body: expect.objectContaining({ n: 1, answer: expect.objectContaining({ code: '0' }) }),
        },
      ]);
    } finally {
      relay.stop();
      portalOf.closeAllConnections();
      await new Promise((r) => portalOf.close(r));
    }
  });

  it('polls as this client: an id made once in the config folder and kept across restarts, and the machine name', async () => {
    const dir = path.join(tmp.dir, 'config');
    const first = clientWho(dir, 'workstation.example.org');
    expect(first.client).toMatch(/^[A-Za-z0-9_-]{20,64}$/);
    expect(first.label).toBe('workstation.example.org');
    expect(fs.readFileSync(path.join(dir, 'client-id'), 'utf8').trim()).toBe(first.client);
    // The next run (a restart) reads it back; another config folder (another machine) has its own.
    expect(clientWho(dir, 'workstation.example.org')).toEqual(first);
    expect(clientWho(path.join(tmp.dir, 'other')).client).not.toBe(first.client);
    expect(clientWho(dir, 'h'.repeat(100)).label).toHaveLength(64);

    const portal = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    bodies.length = 0;
    await new Promise<void>((resolve) => {
      new Relay({
        handle: async () => ({ id: 0, code: '0', msg: '', data: null }),
        log: () => undefined,
        who: first,
        onRefused: () => resolve(),
      }).start(portal, 'web-token');
    });
    expect(bodies[0]).toMatchObject({ after: 0, client: first.client, label: 'workstation.example.org' });
  });
});
