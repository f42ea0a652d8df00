import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { Relay } from './relay';

/**
 * The relay's loop against a portal stand-in: a poll the portal refuses (its web login of the client ended) ends the
 * loop at once and asks the session to renew, instead of polling every 8 s with a dead token.
 */
describe('relay', () => {
  let polls = 0;
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/fastrans/relay/poll')) polls++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ code: '1000', msg: 'Not logged in to the fast-transfer web server', data: null }),
    );
  });
  afterAll(() => new Promise((r) => server.close(r)));

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
});
