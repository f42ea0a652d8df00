import { describe, expect, it } from 'vitest';
import { testDbTargets } from '@hpc/server-kit/testing';
import { Browser, dataOf, loggedIn, usePortal } from '../identity/identity.test-fixture';

describe.each(testDbTargets())('user centre ($name)', (target) => {
  const portal = usePortal(target);

  it('answers the profile: who the user is and whether a local password exists, never the hash', async () => {
    const demo = await loggedIn(portal.app, 'demo');
    const res = await demo.get('/api/user/profile');
    expect(res.statusCode).toBe(200);
    const profile = dataOf<Record<string, unknown>>(res);
    expect(profile).toMatchObject({
      username: 'demo',
      fullName: '演示用户',
      email: 'demo@example.cn',
      role: 'user',
      hasPassword: true,
      sso: false,
      ssoProvider: null,
    });
    expect(JSON.stringify(profile)).not.toMatch(/argon2/);
    expect((await new Browser(portal.app).get('/api/user/profile')).statusCode).toBe(401);
  });

  it('tells a single sign-on user without a password where their password lives', async () => {
    const services = (await import('../identity/identity.services')).createIdentityServices(portal.deps);
    await services.users.add({
      username: 'ssouser',
      fullName: 'SSO',
      oidc: { issuer: 'https://idp.example.cn/realms/hpc', subject: 'abc' },
    });
    const row = await services.users.get('ssouser');
    const { createUserCentreService } = await import('./user-centre.service');
    const { createUserPreferenceRepository } = await import('./user-preference.repository');
    const service = createUserCentreService({
      users: services.repos.users,
      preferences: createUserPreferenceRepository(portal.deps.db),
      now: () => 0,
    });
    expect(await service.profile(row.id)).toMatchObject({
      hasPassword: false,
      sso: true,
      ssoProvider: 'https://idp.example.cn/realms/hpc',
    });
  });

  it('keeps language and theme per user on the server, so they follow the user to another browser', async () => {
    const first = await loggedIn(portal.app, 'wangwu');
    expect(dataOf(await first.get('/api/user/preferences'))).toEqual({
      language: null,
      theme: null,
      dashboardEntries: null,
    });
    const save = (b: Browser, json: unknown) => b.call('PUT' as 'POST', '/api/user/preferences', { json });
    expect(dataOf(await save(first, { language: 'en-US' }))).toEqual({
      language: 'en-US',
      theme: null,
      dashboardEntries: null,
    });
    expect(dataOf(await save(first, { theme: 'light_blue' }))).toEqual({
      language: 'en-US',
      theme: 'light_blue',
      dashboardEntries: null,
    });

    const elsewhere = await loggedIn(portal.app, 'wangwu', '10.0.0.9');
    expect(dataOf(await elsewhere.get('/api/user/preferences'))).toEqual({
      language: 'en-US',
      theme: 'light_blue',
      dashboardEntries: null,
    });
    // Another user's are their own.
    const lisi = await loggedIn(portal.app, 'lisi');
    expect(dataOf(await lisi.get('/api/user/preferences'))).toEqual({
      language: null,
      theme: null,
      dashboardEntries: null,
    });

    // The Dashboard's quick entries (issue 22 §4), in the user's order; malformed or repeated ids change nothing.
    expect(dataOf(await save(first, { dashboardEntries: ['jobs', 'efile', 'apps'] }))).toMatchObject({
      dashboardEntries: ['jobs', 'efile', 'apps'],
    });
    for (const bad of [{ dashboardEntries: ['Jobs!'] }, { dashboardEntries: ['jobs', 'jobs'] }]) {
      expect((await save(first, bad)).json().code).toBe('1004');
    }
    await save(first, { dashboardEntries: [] });
    for (const bad of [{ language: 'fr-FR' }, { theme: 'red' }, {}]) {
      const res = await save(first, bad);
      expect(['1004', '1003']).toContain(res.json().code);
    }
    expect(
      (await save(first, { language: 'zh-CN' }).then(() => first.get('/api/user/preferences'))).json().data,
    ).toEqual({ language: 'zh-CN', theme: 'light_blue', dashboardEntries: [] });
    const noCsrf = await first.call('PUT' as 'POST', '/api/user/preferences', {
      json: { theme: 'dark_blue' },
      noCsrf: true,
    });
    expect(noCsrf.json().code).toBe('CSRF');
    expect(dataOf<{ theme: string }>(await first.get('/api/user/preferences')).theme).toBe('light_blue');
  });

  // The password change (POST /api/user/password) is identity's: auth.test.ts checks it.
});
