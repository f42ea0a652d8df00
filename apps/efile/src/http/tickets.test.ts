import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FASTRANS_TOKEN_USE } from '@hpc/contracts';
import { createRevocationStore, credentialId, MemoryKv } from '@hpc/server-kit';
import { DEMO_RIGHTS, makeHarness, type Harness } from '../efile.test-fixture';

type Json = { code: string; data: { ticket: string } };

/**
 * A browser ticket gives the rights of the token it was asked with as they are at each use: found from outside
 * (2026-12-01), a ticket asked for before its session ended still downloaded for its minute after the logout.
 */
describe('browser tickets end with their token', () => {
  const revocations = createRevocationStore(new MemoryKv());
  let h: Harness;

  beforeAll(async () => {
    h = await makeHarness({ revocations });
    fs.writeFileSync(h.home + '/a.txt', 'alpha');
  });
  afterAll(() => h.close());

  const ticketFor = async (token: string) => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/browserTicket.action',
      headers: { token, 'content-type': 'application/json' },
      payload: { action: 'download', path: '/public/home/demo/a.txt' },
    });
    expect(r.json<Json>().code).toBe('0');
    return r.json<Json>().data.ticket;
  };
  const download = (ticket: string) =>
    h.app.inject({ method: 'GET', url: `/download.action?path=/public/home/demo/a.txt&ticket=${ticket}` });

  it("a ticket of a session ended since is refused (401), as its token is; another session's goes on", async () => {
    const mine = await ticketFor(await h.token({ sid: 'sess-ended' }));
    const other = await ticketFor(await h.token({ sid: 'sess-other' }));
    expect((await download(mine)).body).toBe('alpha');
    await revocations.endSessions(['sess-ended']);
    const refused = await download(mine);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: '401' });
    expect((await download(other)).body).toBe('alpha');
  });

  it('a ticket of a revoked day token, or of a user disabled since, is refused (1406)', async () => {
    const day = await h.token({ use: FASTRANS_TOKEN_USE, sid: undefined });
    const t = await ticketFor(day);
    expect((await download(t)).body).toBe('alpha');
    await revocations.recordIssued('u-demo', {
      id: credentialId(day),
      kind: 'fastrans',
      clusterId: 'c1',
      issuedAt: Date.now(),
      expiresAt: Date.now() + 60_000,
      detail: '/public/home/demo',
    });
    await revocations.revokeCredential('u-demo', credentialId(day));
    expect((await download(t)).json()).toMatchObject({ code: '1406' });

    const later = await ticketFor(await h.token({ sid: 'sess-later' }));
    await revocations.disableUser('u-demo', Date.now());
    expect((await download(later)).json()).toMatchObject({ code: '1406' });
  });

  it("a day token's ticket carries the rights of the moment: a withdrawn account is refused (1007)", async () => {
    const t = await ticketFor(await h.token({ sub: 'u-day', use: FASTRANS_TOKEN_USE }));
    expect((await download(t)).body).toBe('alpha');
    h.rights.set('u-day', { ...DEMO_RIGHTS, st: 'Disable' });
    expect((await download(t)).json()).toMatchObject({ code: '1007' });
  });
});
