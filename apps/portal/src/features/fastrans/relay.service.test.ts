import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryKv, RedisKv, type KvStore } from '@hpc/server-kit';
import { relayService } from './relay.service';
import { clientIdentity, clientPresence, LEGACY_CLIENT_ID } from './client-presence';

/**
 * The in-memory store, each call answered after a pause of up to 2 ms as a network store would: without it every
 * poll's steps run as one, and two polls could never interleave. Redis too when TEST_REDIS_URL is set (under a key
 * prefix of this run's own).
 */
const latency = (kv: KvStore): KvStore =>
  new Proxy(kv, {
    get(target, name: keyof KvStore) {
      const call = (...args: unknown[]) =>
        (Reflect.get(target, name) as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      if (name === 'close') return call;
      return async (...args: unknown[]) => {
        await new Promise((r) => setTimeout(r, Math.random() * 2));
        return call(...args);
      };
    },
  });
const stores: [string, () => KvStore][] = [['memory', () => latency(new MemoryKv())]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push(['redis', () => new RedisKv(url, `test-relay:${crypto.randomBytes(4).toString('hex')}:`)]);
}

/**
 * Until each (user, client) given is marked as polling by a poll just started, then a short pause for the other
 * polls started with it to reach their wait: a fixed pause alone was too short for Redis on a loaded machine, and a
 * send before the mark is refused (631013).
 */
const settle = async (
  relay: { polling: (u: string, c: string) => Promise<boolean> },
  ...who: [string, string][]
) => {
  for (const [user, client] of who)
    while (!(await relay.polling(user, client))) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
};
const WORK = { id: 'work-station-1', label: 'workstation', version: '1.1.0' };
const LAPTOP = { id: 'laptop-22', label: 'laptop', version: '1.1.0' };

describe.each(stores)('the fast-transfer relay (%s)', (_name, makeKv) => {
  // Sends nobody awaits (their pages give up): settled before the store closes, after each test.
  let sent: Promise<unknown>[] = [];
  let store: KvStore | undefined;
  const setup = () => {
    sent = [];
    const kv = (store = makeKv());
    const presence = clientPresence(kv);
    return { kv, presence, relay: relayService(kv, presence) };
  };
  afterEach(async () => {
    await Promise.all(sent);
    await store?.close();
    store = undefined;
  });

  it('carries an action to the polling client and its answer back to the page', async () => {
    const { kv, relay } = setup();
    const client = (async () => {
      const { seq, requests } = await relay.poll('7', WORK, 0, 5_000);
      expect(requests).toEqual([{ n: 1, m: { action: 'check', sign: 's' } }]);
      expect(seq).toBe(1);
      await relay.answer('7', WORK.id, 1, { code: '0', msg: '', data: { sign: 's' } });
    })();
    await settle(relay, ['7', WORK.id]);
    const answer = await relay.send(7, WORK.id, { action: 'check', sign: 's' }, 5_000);
    await client;
    expect(answer).toEqual({ code: '0', msg: '', data: { sign: 's' } });
    // Answered once: the request and the answer are gone.
    expect(await kv.get(`fastrans:relay:7:${WORK.id}:q:1`)).toBeNull();
    expect(await kv.get(`fastrans:relay:7:${WORK.id}:a:1`)).toBeNull();
  });

  it("hands a client only its own user's requests, each once", async () => {
    const { relay } = setup();
    // Both users' clients poll (each with its own web token, so its own user).
    const seven = relay.poll('7', WORK, 0, 1_000);
    const eight = relay.poll('8', WORK, 0, 1_000);
    await settle(relay, ['7', WORK.id], ['8', WORK.id]);
    sent.push(relay.send(7, undefined, { action: 'list' }, 300));
    sent.push(relay.send(8, undefined, { action: 'logout' }, 300));
    const mine = await seven;
    expect(mine.requests.map((r) => r.m.action)).toEqual(['list']);
    expect((await eight).requests.map((r) => r.m.action)).toEqual(['logout']);
    expect((await relay.poll('7', WORK, mine.seq, 200)).requests).toEqual([]);
  });

  it("hands each of a user's two clients only the requests addressed to it; unaddressed, neither", async () => {
    const { relay, presence } = setup();
    const work = relay.poll('7', WORK, 0, 1_500);
    const laptop = relay.poll('7', LAPTOP, 0, 1_500);
    await settle(relay, ['7', WORK.id], ['7', LAPTOP.id]);
    sent.push(relay.send(7, WORK.id, { action: 'upload', local: ['/home/me/data'] }, 300));
    sent.push(relay.send(7, LAPTOP.id, { action: 'list' }, 300));
    expect((await work).requests.map((r) => r.m)).toEqual([{ action: 'upload', local: ['/home/me/data'] }]);
    expect((await laptop).requests.map((r) => r.m)).toEqual([{ action: 'list' }]);
    // Both poll: a page that names none is refused (guessing could upload the other machine's file).
    expect(await relay.send(7, undefined, { action: 'list' }, 300)).toMatchObject({
      code: '1004',
      data: { reason: 'fastransChooseClient' },
    });
    expect(
      (await presence.list(7)).map((c) => [c.id, c.label]).sort(([a], [b]) => a!.localeCompare(b!)),
    ).toEqual([
      [LAPTOP.id, 'laptop'],
      [WORK.id, 'workstation'],
    ]);
    // A named client that does not poll: not running.
    expect((await relay.send(7, 'elsewhere', { action: 'list' })).code).toBe('631013');
  });

  it('gives each request to exactly one of 20 polls of one client at once', async () => {
    const { relay } = setup();
    const polls = Array.from({ length: 20 }, () => relay.poll('7', WORK, 0, 3_000));
    await settle(relay, ['7', WORK.id]);
    for (let i = 0; i < 5; i++) sent.push(relay.send(7, WORK.id, { action: 'get_trans_count', i }, 400));
    const got = (await Promise.all(polls)).flatMap((p) => p.requests.map((r) => r.n));
    expect(got.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('still serves an older client that sends no id, as one client of a fixed id', async () => {
    const { relay, presence } = setup();
    const old = clientIdentity({ version: '1.0.0' });
    expect(old).toEqual({ id: LEGACY_CLIENT_ID, label: '', version: '1.0.0' });
    const client = (async () => {
      const { requests } = await relay.poll('7', old, 0, 5_000);
      await relay.answer('7', LEGACY_CLIENT_ID, requests[0]!.n, { code: '0', msg: '', data: 'ok' });
    })();
    await settle(relay, ['7', LEGACY_CLIENT_ID]);
    expect(await relay.send(7, undefined, { action: 'check' }, 5_000)).toMatchObject({ data: 'ok' });
    await client;
    expect((await presence.list(7)).map((c) => c.id)).toEqual([LEGACY_CLIENT_ID]);
  });

  it('answers 631013 at once when no client polls, 30001 when the polling client does not answer', async () => {
    const { kv, relay } = setup();
    expect((await relay.send(7, undefined, { action: 'check' })).code).toBe('631013');
    expect(await kv.get(`fastrans:relay:7:${WORK.id}:seq`)).toBeNull();
    await relay.poll('7', WORK, 0, 0);
    expect((await relay.send(7, undefined, { action: 'check' }, 300)).code).toBe('30001');
    // The request that nobody took is withdrawn: a client polling later does not run it.
    expect((await relay.poll('7', WORK, 0, 200)).requests).toEqual([]);
  });

  it("stops at one client's logout: its waiting poll ends empty, the user's other client stays", async () => {
    const { kv, relay, presence } = setup();
    const waiting = relay.poll('7', WORK, 0, 10_000);
    await relay.poll('7', LAPTOP, 0, 0);
    await settle(relay, ['7', WORK.id]);
    await Promise.all([relay.gone('7', WORK.id), presence.leave('7', WORK.id)]);
    expect(await waiting).toEqual({ seq: 0, requests: [] });
    expect((await relay.send(7, WORK.id, { action: 'list' })).code).toBe('631013');
    expect(await kv.get(`fastrans:relay:7:${WORK.id}:seq`)).toBeNull();
    expect((await presence.list(7)).map((c) => c.id)).toEqual([LAPTOP.id]);
    // The one left polling is the page's without naming it.
    const laptop = relay.poll('7', LAPTOP, 0, 1_000);
    await settle(relay, ['7', LAPTOP.id]);
    sent.push(relay.send(7, undefined, { action: 'list' }, 300));
    expect((await laptop).requests.map((r) => r.m.action)).toEqual(['list']);
  });

  it('starts from the beginning when the counter expired and began again', async () => {
    const { relay } = setup();
    const polled = relay.poll('7', WORK, 40, 1_000);
    await settle(relay, ['7', WORK.id]);
    sent.push(relay.send(7, undefined, { action: 'servers' }, 500));
    expect((await polled).requests.map((r) => r.m.action)).toEqual(['servers']);
  });
});
