import type { FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, createRevocationStore, MemoryKv } from '@hpc/server-kit';
import type { EfileDeps } from '../deps';
import { createAuth } from './auth';

type Verify = EfileDeps['verifier']['verify'];

function setup(verify: Verify) {
  const calls: (string | undefined)[] = [];
  const revocations = createRevocationStore(new MemoryKv());
  const deps = {
    revocations,
    verifier: {
      verify: (t: string | undefined) => {
        calls.push(t);
        return verify(t);
      },
    },
    config: { EFILE_HOME_PATTERN: '/public/home/{user}', EFILE_DEMO: false },
  } as unknown as EfileDeps;
  const auth = createAuth(deps);
  const call = async (token: string | undefined) => {
    const req = { routeOptions: { config: {} }, headers: { token }, query: {} } as unknown as FastifyRequest;
    await auth.hook(req);
    return auth.user(req);
  };
  return { calls, call, revocations };
}

const claims = (exp: number) => ({
  sub: 'u1',
  aud: 'c1',
  cun: 'demo',
  home: '/public/home/demo',
  paths: [],
  st: 'Normal' as const,
  exp_acct: null,
  sid: 'session-1',
  exp,
  iat: exp - 3600,
});

describe('token verification cache', () => {
  afterEach(() => vi.useRealTimers());

  it('checks a token once for a burst of requests (chunks), and each new token again', async () => {
    const { calls, call } = setup(async () => claims(Math.floor(Date.now() / 1000) + 3600));
    for (let i = 0; i < 5; i++) expect((await call('t1')).sub).toBe('u1');
    await call('t2');
    expect(calls).toEqual(['t1', 't2']);
  });

  it('never serves a token from the cache past its expiry, nor longer than a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
    let valid = true;
    const { calls, call } = setup(async () => {
      if (!valid) throw new AppError('1406', 'expired');
      return claims(1_800_000_030); // expires in 30 s
    });
    await call('short');
    vi.setSystemTime(1_800_000_029_000);
    await call('short'); // still cached
    expect(calls).toHaveLength(1);
    vi.setSystemTime(1_800_000_031_000);
    valid = false;
    await expect(call('short')).rejects.toMatchObject({ code: '1406' });
    expect(calls).toHaveLength(2);

    const long = setup(async () => claims(1_800_000_000 + 3600));
    vi.setSystemTime(1_800_000_000_000);
    await long.call('long');
    vi.setSystemTime(1_800_000_061_000);
    await long.call('long');
    expect(long.calls).toHaveLength(2);
  });

  it('does not remember failures, nor a missing token', async () => {
    let ok = false;
    const { calls, call } = setup(async (t) => {
      if (!t || !ok) throw new AppError('1406', 'no');
      return claims(Math.floor(Date.now() / 1000) + 3600);
    });
    await expect(call('t')).rejects.toMatchObject({ code: '1406' });
    ok = true;
    expect((await call('t')).sub).toBe('u1');
    await expect(call(undefined)).rejects.toMatchObject({ code: '1406' });
    await expect(call(undefined)).rejects.toMatchObject({ code: '1406' });
    expect(calls).toEqual(['t', 't', undefined, undefined]);
  });
});

describe('revocation (issue 25 §1.3)', () => {
  it('a token of an ended session is refused on its next request with 401, cached signature or not', async () => {
    const { call, revocations } = setup(async () => claims(Math.floor(Date.now() / 1000) + 3600));
    expect((await call('t1')).sub).toBe('u1');
    await revocations.endSessions(['session-other']);
    expect((await call('t1')).sub).toBe('u1');
    await revocations.endSessions(['session-1']);
    await expect(call('t1')).rejects.toMatchObject({ code: '401' });
  });

  it('a disabled user’s token is refused with 1406', async () => {
    const { call, revocations } = setup(async () => claims(Math.floor(Date.now() / 1000) + 3600));
    expect((await call('t1')).sub).toBe('u1');
    await revocations.disableUser('u1', Date.now());
    await expect(call('t1')).rejects.toMatchObject({ code: '1406' });
  });
});
