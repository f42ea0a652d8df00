import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FASTRANS_TOKEN_USE } from '@hpc/contracts';
import { MemoryKv } from '../kv';
import {
  assertNotRevoked,
  createRevocationStore,
  credentialId,
  MAX_ISSUED_PER_DAY,
  openRevocationStore,
  type IssuedCredential,
  type RevocationStore,
} from './revocation';

const stores: [string, () => { store: RevocationStore; close(): Promise<void> }][] = [
  [
    'memory',
    () => {
      const kv = new MemoryKv();
      return { store: createRevocationStore(kv), close: () => kv.close() };
    },
  ],
];
const REDIS = process.env.TEST_REDIS_URL;
if (REDIS) stores.push(['redis', () => openRevocationStore(REDIS)]);
else console.warn('revocation store: Redis case skipped (set TEST_REDIS_URL to run it)');

const nowS = () => Math.floor(Date.now() / 1000);
// Unique per run: the Redis keys are shared by design (no per-test prefix).
const u = () => `t${Math.random().toString(36).slice(2)}`;

describe.each(stores)('revocation store (%s)', (_name, open) => {
  const opened = open();
  const { store } = opened;
  afterAll(() => opened.close());

  it('an ended session refuses its tokens only; other sessions of the user go on', async () => {
    const sub = u();
    const [ended, other] = [u(), u()];
    await store.endSessions([ended]);
    expect(await store.revoked({ sub, sid: ended, iat: nowS() })).toBe('session');
    expect(await store.revoked({ sub, sid: other, iat: nowS() })).toBeNull();
    // A token without a session (the portal's own) is not concerned.
    expect(await store.revoked({ sub, iat: nowS() })).toBeNull();
  });

  it('a disabled user refuses the tokens issued until then, not those issued later', async () => {
    const sub = u();
    const at = Date.now();
    await store.disableUser(sub, at);
    expect(await store.revoked({ sub, iat: Math.floor(at / 1000) - 60 })).toBe('user');
    expect(await store.revoked({ sub, iat: Math.floor(at / 1000) })).toBe('user');
    expect(await store.revoked({ sub, iat: Math.floor(at / 1000) + 2 })).toBeNull();
    expect(await store.revoked({ sub: u(), iat: 0 })).toBeNull();
  });

  it('records what was issued, lists the live ones newest first, revokes only its own user’s', async () => {
    const sub = u();
    const t = Date.now();
    const cred = (id: string, issuedAt: number, expiresAt: number): IssuedCredential => ({
      id,
      kind: 'linux',
      clusterId: 'c1',
      issuedAt,
      expiresAt,
      detail: 'up /home/x',
    });
    // Ids unique per run too: a revoked credential's mark outlives the run in Redis (a day).
    const [a, b, old] = [u(), u(), u()];
    await store.recordIssued(sub, cred(a, t - 2000, t + 60_000));
    await store.recordIssued(sub, cred(b, t - 1000, t + 60_000));
    await store.recordIssued(sub, cred(old, t - 5000, t - 1));
    expect((await store.issued(sub)).map((c) => c.id)).toEqual([b, a]);
    // Another user cannot revoke it (nor learn whether it exists).
    expect(await store.revokeCredential(u(), a)).toBe(false);
    expect(await store.revoked({ sub, credential: a })).toBeNull();
    expect(await store.revokeCredential(sub, a)).toBe(true);
    expect(await store.revoked({ sub, credential: a })).toBe('credential');
    expect((await store.issued(sub)).map((c) => c.id)).toEqual([b]);
  });

  it('a parallel burst past the daily allowance records exactly the allowance; the rest are refused (429)', async () => {
    const sub = u();
    const t = Date.now();
    const issue = (who: string, id = u()) =>
      store.recordIssued(who, {
        id,
        kind: 'linux',
        clusterId: 'c1',
        issuedAt: t,
        expiresAt: t + 60_000,
        detail: 'x',
      });
    const ids = Array.from({ length: MAX_ISSUED_PER_DAY + 40 }, () => u());
    const results = await Promise.allSettled(ids.map((id) => issue(sub, id)));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(40);
    expect(refused[0]!.reason).toMatchObject({ code: '429' });
    expect(
      (refused[0]!.reason as { data: { retryAfterSeconds: number } }).data.retryAfterSeconds,
    ).toBeGreaterThan(0);
    expect(await store.issued(sub)).toHaveLength(MAX_ISSUED_PER_DAY);
    // Revoking does not give the day's allowance back: it counts what was handed out, not what is live.
    await store.revokeCredential(sub, ids[0]!);
    await expect(issue(sub)).rejects.toMatchObject({ code: '429' });
    // Another user's allowance is their own.
    await issue(u());
  });

  it('assertNotRevoked: an ended session answers 401, a revoked day token 1406', async () => {
    const sub = u();
    const claims = { sub, sid: u(), iat: nowS() };
    await expect(assertNotRevoked(store, 'tok', claims)).resolves.toBeUndefined();
    await store.endSessions([claims.sid]);
    await expect(assertNotRevoked(store, 'tok', claims)).rejects.toMatchObject({ code: '401' });
    const day = `header.payload.${u()}`;
    await store.recordIssued(sub, {
      id: credentialId(day),
      kind: 'fastrans',
      clusterId: 'c1',
      issuedAt: Date.now(),
      expiresAt: Date.now() + 60_000,
      detail: '/home/x',
    });
    const dayClaims = { sub, iat: nowS(), use: FASTRANS_TOKEN_USE };
    await expect(assertNotRevoked(store, day, dayClaims)).resolves.toBeUndefined();
    await store.revokeCredential(sub, credentialId(day));
    await expect(assertNotRevoked(store, day, dayClaims)).rejects.toMatchObject({ code: '1406' });
  });
});

describe.skipIf(!REDIS)('revocation store through Redis: one set of keys for every service', () => {
  it('what one process records, another opened separately sees at once', async () => {
    const a = openRevocationStore(REDIS);
    const b = openRevocationStore(REDIS);
    try {
      const sid = u();
      expect(await b.store.revoked({ sub: '1', sid })).toBeNull();
      await a.store.endSessions([sid]);
      expect(await b.store.revoked({ sub: '1', sid })).toBe('session');
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the revocation store of one process without Redis, kept in a journal file', () => {
  it('refuses after a restart what it refused before; lines past their time are dropped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'revocations-'));
    try {
      const file = path.join(dir, 'revocations.jsonl');
      const [sub, sid, other] = [u(), u(), u()];
      const first = openRevocationStore(undefined, file);
      await first.store.endSessions([sid]);
      await first.store.disableUser(other, Date.now());
      const cred: IssuedCredential = {
        id: credentialId('day-secret'),
        kind: 'fastrans',
        clusterId: 'c1',
        issuedAt: Date.now(),
        expiresAt: Date.now() + 3600_000,
        detail: '/home',
      };
      await first.store.recordIssued(sub, cred);
      await first.store.recordIssued(sub, { ...cred, id: credentialId('kept') });
      expect(await first.store.revokeCredential(sub, cred.id)).toBe(true);
      await first.close();
      expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
      // An entry whose time is over, written by an earlier run.
      fs.appendFileSync(
        file,
        JSON.stringify({ o: 'set', k: 'sid:gone', v: '1', exp: Date.now() - 1 }) + '\n',
      );

      // The process starts again.
      const again = openRevocationStore(undefined, file);
      expect(await again.store.revoked({ sub, sid })).toBe('session');
      expect(await again.store.revoked({ sub: other, iat: nowS() - 10 })).toBe('user');
      expect(await again.store.revoked({ sub, credential: cred.id })).toBe('credential');
      expect((await again.store.issued(sub)).map((c) => c.id)).toEqual([credentialId('kept')]);
      expect(await again.store.revoked({ sub: u(), sid: u() })).toBeNull();
      await again.close();
      expect(fs.readFileSync(file, 'utf8')).not.toContain('sid:gone');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is rewritten only by the process that holds it; another (the admin CLI) appends and never rewrites', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'revocations-'));
    try {
      const file = path.join(dir, 'revocations.jsonl');
      const portal = openRevocationStore(undefined, file);
      const [sid1, sid2, sid3] = [u(), u(), u()];
      await portal.store.endSessions([sid1]);
      const inode = fs.statSync(file).ino;
      // The CLI opens the same journal while the portal runs: a rewrite by it (read, write, rename) lost what the
      // portal appended in between; now it does not rewrite at all.
      const cli = openRevocationStore(undefined, file);
      expect(fs.statSync(file).ino).toBe(inode);
      await cli.store.endSessions([sid2]);
      await portal.store.endSessions([sid3]);
      await cli.close();
      await portal.close();
      const after = openRevocationStore(undefined, file);
      for (const sid of [sid1, sid2, sid3])
        expect(await after.store.revoked({ sub: u(), sid })).toBe('session');
      await after.close();
      expect(fs.existsSync(`${file}.lock`)).toBe(false);
      // A lock left by a process that is gone is taken over (the journal is rewritten again).
      fs.writeFileSync(`${file}.lock`, '999999999');
      const next = openRevocationStore(undefined, file);
      expect(fs.readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid));
      await next.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
