import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGEST_RANGE_MAX, WANT_CONTENT_DIGEST } from '@hpc/contracts';
import { makeHarness, type Harness } from '../../efile.test-fixture';

const HOME = '/public/home/demo';

/**
 * Found from outside (2026-12-01): a ranged read with a digest is read whole and held until its answer is read, and a
 * client that asked and never read held 64 MiB per request (40 paused connections of one user: 1.4 GB). Now a user
 * holds at most 256 MiB of them at once (the client's own streams hold 128 MiB at most): past that, "busy, ask again".
 */
describe('ranges held for answers nobody reads', () => {
  let h: Harness;
  let token: string;
  let port: number;

  beforeAll(async () => {
    h = await makeHarness();
    token = await h.token();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as net.AddressInfo).port;
    // Sparse: no disk, but every range of it is read whole into memory before it is sent.
    fs.writeFileSync(h.home + '/big.bin', '');
    fs.truncateSync(h.home + '/big.bin', DIGEST_RANGE_MAX);
  });
  afterAll(() => h.close());

  /** Asks for the whole file as one digest range and never reads the body; resolves with the status line. */
  const paused = () =>
    new Promise<{ socket: net.Socket; status: string }>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', reject);
      let head = '';
      const onData = (d: Buffer) => {
        head += d.toString('latin1');
        if (!head.includes('\r\n')) return;
        socket.off('data', onData);
        socket.pause(); // never read the rest
        resolve({ socket, status: head.split('\r\n')[0]! });
      };
      socket.on('data', onData);
      socket.write(
        `GET /fastrans/read.action?path=${encodeURIComponent(`${HOME}/big.bin`)} HTTP/1.1\r\n` +
          `host: 127.0.0.1\r\ntoken: ${token}\r\nwant-content-digest: ${WANT_CONTENT_DIGEST}\r\n` +
          `range: bytes=0-${DIGEST_RANGE_MAX - 1}\r\n\r\n`,
      );
    });

  it("holds at most the user's budget of them; the next is told to ask again, and asks well once they go", async () => {
    const fits = (256 * 1024 * 1024) / DIGEST_RANGE_MAX;
    const held = [];
    for (let i = 0; i < fits; i++) held.push(await paused());
    expect(held.map((r) => r.status)).toEqual(Array(fits).fill('HTTP/1.1 206 Partial Content'));
    const over = await paused();
    expect(over.status).toBe('HTTP/1.1 503 Service Unavailable');
    over.socket.destroy();
    for (const r of held) r.socket.destroy();
    // Given back when their connections close.
    let after = '';
    for (let i = 0; i < 50 && !after.includes('206'); i++) {
      const r = await paused();
      after = r.status;
      r.socket.destroy();
      if (!after.includes('206')) await new Promise((res) => setTimeout(res, 50));
    }
    expect(after).toBe('HTTP/1.1 206 Partial Content');
  }, 60_000);
});
