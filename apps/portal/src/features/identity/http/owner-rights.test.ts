import { describe, expect, it } from 'vitest';
import { OWNER_RIGHTS_PATH } from '@hpc/contracts';
import { testDbTargets } from '@hpc/server-kit/testing';
import { usePortal } from '../identity.test-fixture';

type Json = { code: string; data: unknown };

/** Issue 10 §2.3/§2.5: efile asks the portal for a user's rights as they are now (shares, Linux commands). */
describe.each(testDbTargets())('owner rights for efile ($name)', (target) => {
  const portal = usePortal(target, { EFILE_SERVICE_SECRET: 'service-secret-for-tests' });
  const ask = async (sub: string, clusterId: string, auth = 'Bearer service-secret-for-tests') =>
    portal.app.inject({
      method: 'GET',
      url: `${OWNER_RIGHTS_PATH}?clusterId=${clusterId}&sub=${sub}`,
      headers: auth ? { authorization: auth } : {},
    });
  const idOf = async (username: string) =>
    String(
      (
        await portal.deps.db
          .selectFrom('portal_user')
          .select('id')
          .where('username', '=', username)
          .executeTakeFirstOrThrow()
      ).id,
    );

  it('answers only with the service secret', async () => {
    const demo = await idOf('demo');
    expect((await ask(demo, '11250', '')).statusCode).toBe(403);
    expect((await ask(demo, '11250', 'Bearer wrong')).statusCode).toBe(403);
    expect((await ask(demo, '11250')).statusCode).toBe(200);
  });

  it('gives the rights as they are now: grants, account status, disabled users, other clusters', async () => {
    const demo = await idOf('demo');
    expect((await ask(demo, '11250')).json<Json>()).toMatchObject({
      code: '0',
      data: { cun: 'demo', paths: ['/public/share/demo-group'], st: 'Normal' },
    });
    // wangwu's account on 11250 is disabled in the seed.
    expect((await ask(await idOf('wangwu'), '11250')).json<Json>().data).toMatchObject({ st: 'Disable' });
    // No compute user on that cluster, an unknown user, a malformed id.
    expect((await ask(demo, '11252')).json<Json>().data).toBeNull();
    expect((await ask('999999', '11250')).json<Json>().data).toBeNull();
    expect((await ask('demo', '11250')).json<Json>().data).toBeNull();
    // The grant removed, then the portal user disabled.
    await portal.deps.db.deleteFrom('storage_path').where('path', '=', '/public/share/demo-group').execute();
    expect((await ask(demo, '11250')).json<Json>().data).toMatchObject({ paths: [] });
    await portal.deps.db
      .updateTable('portal_user')
      .set({ status: 'disabled' })
      .where('id', '=', Number(demo))
      .execute();
    expect((await ask(demo, '11250')).json<Json>().data).toBeNull();
  });
});

describe.each(testDbTargets())('owner rights without a service secret ($name)', (target) => {
  const portal = usePortal(target);
  it('does not exist', async () => {
    const res = await portal.app.inject({
      method: 'GET',
      url: `${OWNER_RIGHTS_PATH}?clusterId=11250&sub=1`,
      headers: { authorization: 'Bearer ' },
    });
    expect(res.statusCode).toBe(404);
  });
});
