import { describe, expect, it } from 'vitest';
import { Limits, REQUEST_TIME_HEADER } from '@hpc/contracts';
// The browser's encoder, so the test proves both halves speak the same format.
import { encodeRequestTime } from '../../../api-client/src/request-time';
import { createServer } from '../fastify';
import { decodeRequestTime, requestTimeCheck } from './request-time';

describe('request-time header', () => {
  it('round-trips the time through the browser encoder and the server decoder', async () => {
    const t = 1_760_000_000_123;
    const value = await encodeRequestTime(t);
    expect(value).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decodeRequestTime(value)).toBe(t);
    // A fresh IV each time: two headers for the same instant differ.
    expect(await encodeRequestTime(t)).not.toBe(value);
  });

  it('refuses a value sealed with another phrase, tampered with, or not base64url', async () => {
    const other = await encodeRequestTime(Date.now(), 'another phrase');
    await expect(decodeRequestTime(other)).rejects.toMatchObject({ code: 'REQUEST_TIME' });
    const good = Buffer.from(await encodeRequestTime(), 'base64url');
    good.writeUInt8(good.readUInt8(good.length - 1) ^ 1, good.length - 1);
    await expect(decodeRequestTime(good.toString('base64url'))).rejects.toMatchObject({
      code: 'REQUEST_TIME',
    });
    await expect(decodeRequestTime('not a token')).rejects.toMatchObject({
      code: 'REQUEST_TIME',
      status: 400,
    });
  });

  describe('hook', () => {
    const now = 1_760_000_000_000;
    const build = async () => {
      const app = createServer({ logLevel: 'silent' });
      app.addHook(
        'onRequest',
        requestTimeCheck({ now: () => now, required: (req) => req.method === 'POST' }),
      );
      app.get('/x', async () => ({ code: '0', msg: 'success', data: null }));
      app.post('/x', async () => ({ code: '0', msg: 'success', data: null }));
      await app.ready();
      return app;
    };

    it('accepts a header within the skew and refuses one beyond it, in either direction', async () => {
      const app = await build();
      const at = async (t: number) =>
        app.inject({
          method: 'GET',
          url: '/x',
          headers: { [REQUEST_TIME_HEADER]: await encodeRequestTime(t) },
        });
      expect((await at(now)).statusCode).toBe(200);
      expect((await at(now - Limits.requestTimeSkewMs + 1000)).statusCode).toBe(200);
      expect((await at(now + Limits.requestTimeSkewMs - 1000)).statusCode).toBe(200);
      for (const t of [now - Limits.requestTimeSkewMs - 1000, now + Limits.requestTimeSkewMs + 1000]) {
        const res = await at(t);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'REQUEST_TIME' });
      }
      await app.close();
    });

    it('refuses a missing header only where required', async () => {
      const app = await build();
      expect((await app.inject({ method: 'GET', url: '/x' })).statusCode).toBe(200);
      const res = await app.inject({ method: 'POST', url: '/x' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'REQUEST_TIME',
        msg: `Missing ${REQUEST_TIME_HEADER} header`,
      });
      await app.close();
    });
  });
});
