import { describe, expect, it } from 'vitest';
import { MemoryKv } from '@hpc/server-kit';
import { relayService } from './relay.service';

describe('the fast-transfer relay', () => {
  it('carries an action to the polling client and its answer back to the page', async () => {
    const kv = new MemoryKv();
    const relay = relayService(kv);
    const client = (async () => {
      const { seq, requests } = await relay.poll('7', 0, 5_000);
      expect(requests).toEqual([{ n: 1, m: { action: 'check', sign: 's' } }]);
      expect(seq).toBe(1);
      await relay.answer('7', 1, { code: '0', msg: '', data: { sign: 's' } });
    })();
    const answer = await relay.send(7, { action: 'check', sign: 's' }, 5_000);
    await client;
    expect(answer).toEqual({ code: '0', msg: '', data: { sign: 's' } });
    // Answered once: the request and the answer are gone.
    expect(await kv.get('fastrans:relay:7:q:1')).toBeNull();
    expect(await kv.get('fastrans:relay:7:a:1')).toBeNull();
    await kv.close();
  });

  it("hands a client only its own user's requests, each once", async () => {
    const kv = new MemoryKv();
    const relay = relayService(kv);
    // Both users' clients poll (each with its own web token, so its own user).
    const seven = relay.poll('7', 0, 1_000);
    const eight = relay.poll('8', 0, 1_000);
    void relay.send(7, { action: 'list' }, 300);
    void relay.send(8, { action: 'logout' }, 300);
    const mine = await seven;
    expect(mine.requests.map((r) => r.m.action)).toEqual(['list']);
    expect((await eight).requests.map((r) => r.m.action)).toEqual(['logout']);
    expect((await relay.poll('7', mine.seq, 200)).requests).toEqual([]);
    await kv.close();
  });

  it('answers 631013 at once when no client polls, 30001 when the polling client does not answer', async () => {
    const kv = new MemoryKv();
    const relay = relayService(kv);
    expect((await relay.send(7, { action: 'check' })).code).toBe('631013');
    expect(await kv.get('fastrans:relay:7:seq')).toBeNull();
    await relay.poll('7', 0, 0);
    expect((await relay.send(7, { action: 'check' }, 300)).code).toBe('30001');
    // The request that nobody took is withdrawn: a client polling later does not run it.
    expect((await relay.poll('7', 0, 200)).requests).toEqual([]);
    await kv.close();
  });

  it('stops at the client logout: nothing more queued, its waiting poll ends empty', async () => {
    const kv = new MemoryKv();
    const relay = relayService(kv);
    const waiting = relay.poll('7', 0, 10_000);
    await relay.gone('7');
    expect(await waiting).toEqual({ seq: 0, requests: [] });
    expect((await relay.send(7, { action: 'list' })).code).toBe('631013');
    expect(await kv.get('fastrans:relay:7:seq')).toBeNull();
    await kv.close();
  });

  it('starts from the beginning when the counter expired and began again', async () => {
    const kv = new MemoryKv();
    const relay = relayService(kv);
    const polled = relay.poll('7', 40, 1_000);
    void relay.send(7, { action: 'servers' }, 500);
    expect((await polled).requests.map((r) => r.m.action)).toEqual(['servers']);
    await kv.close();
  });
});
