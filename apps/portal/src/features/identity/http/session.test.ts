import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterTokenVerifier } from '@hpc/server-kit';
import { makeTempDir, testDbTargets, type TestDbTarget } from '@hpc/server-kit/testing';
import type { CurrentUser } from '@hpc/contracts';
import { Browser, dataOf, loggedIn, startPortal, testClock, type TestDb } from '../identity.test-fixture';

const MIN = 60_000;

describe.each(testDbTargets())('sessions and signing keys on $name', (target: TestDbTarget) => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: TestDb;

  beforeAll(() => {
    tmp = makeTempDir();
    db = target.create();
  });
  afterAll(async () => {
    await db.cleanup();
    tmp.cleanup();
  });

  it('ends a session after the idle time, and keeps one that is used', async () => {
    const clock = testClock();
    const portal = await startPortal(
      tmp.dir,
      db,
      { SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '2' },
      clock,
    );
    const idle = await loggedIn(portal.app, 'demo');
    const busy = await loggedIn(portal.app, 'demo');
    for (let i = 0; i < 3; i++) {
      clock.advance(20 * MIN);
      expect((await busy.get('/api/user/info')).statusCode).toBe(200);
    }
    const res = await idle.get('/api/user/info');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: '401' });

    // The absolute end comes even to a busy session: 2 h after login.
    clock.advance(25 * MIN);
    expect((await busy.get('/api/user/info')).statusCode).toBe(200);
    clock.advance(40 * MIN);
    expect((await busy.get('/api/user/info')).statusCode).toBe(401);
    await portal.app.close();
  });

  it('keeps sessions and signing keys across a restart on the same DATA_DIR', async () => {
    const first = await startPortal(tmp.dir, db);
    const b = await loggedIn(first.app, 'demo');
    const before = dataOf<CurrentUser>(await b.get('/api/user/info'));
    const jwksBefore = (await b.get('/api/auth/jwks.json')).json();
    await first.app.close();

    const keyFiles = fs.readdirSync(path.join(tmp.dir, 'keys')).filter((f) => f.endsWith('.pem'));
    expect(keyFiles).toHaveLength(1);
    expect(fs.statSync(path.join(tmp.dir, 'keys', keyFiles[0]!)).mode & 0o777).toBe(0o600);

    const second = await startPortal(tmp.dir, db);
    const again = new Browser(second.app);
    for (const [k, v] of b.cookies) again.cookies.set(k, v);
    const after = await again.get('/api/user/info');
    expect(after.statusCode).toBe(200);
    expect(after.json().data.id).toBe(before.id);
    const jwksAfter = (await again.get('/api/auth/jwks.json')).json();
    expect(jwksAfter).toEqual(jwksBefore);
    // A token issued before the restart verifies against the keys published after it.
    const verifier = createClusterTokenVerifier({ clusterId: '11250', jwks: () => second.deps.publicJwks() });
    await expect(verifier.verify(before.tokenList[0]!.token)).resolves.toMatchObject({ cun: 'demo' });
    await second.app.close();
  });
});
