import { describe, expect, it } from 'vitest';
import { testDbTargets, type TestDbTarget } from '@hpc/server-kit/testing';
import type { AccountAlert, UserAccount } from '@hpc/contracts';
import { Browser, dataOf, loggedIn, testClock, usePortal } from '../identity.test-fixture';
import { alertFor } from '../data/account.model';

const DAY = 24 * 3600 * 1000;

describe('alert rules', () => {
  const base = {
    accountId: 'a',
    name: 'A',
    status: 'Normal' as const,
    balance: 500,
    endUseTime: null,
    createTime: 0,
    clusterIds: ['1'],
    centerNames: 'x',
    centerNamesEn: 'x',
  };
  it('flags disabled, balance at or under 100, an end within 7 days, and a past end', () => {
    const now = 1_000 * DAY;
    expect(alertFor(base, now).kinds).toEqual([]);
    expect(alertFor({ ...base, balance: 100 }, now).kinds).toEqual(['lowBalance']);
    expect(alertFor({ ...base, balance: 100.01 }, now).kinds).toEqual([]);
    expect(alertFor({ ...base, status: 'Disable' }, now).kinds).toEqual(['disabled']);
    expect(alertFor({ ...base, endUseTime: now + 7 * DAY }, now)).toMatchObject({
      kinds: ['expiring'],
      daysLeft: 7,
    });
    expect(alertFor({ ...base, endUseTime: now + 8 * DAY }, now).kinds).toEqual([]);
    expect(alertFor({ ...base, endUseTime: now - DAY }, now)).toMatchObject({
      kinds: ['expired'],
      daysLeft: -1,
    });
  });
});

describe.each(testDbTargets())('account calls on $name', (target: TestDbTarget) => {
  const clock = testClock();
  const portal = usePortal(target, {}, clock);

  it('answers 401 to an anonymous caller', async () => {
    for (const url of ['/api/account/list', '/api/account/alerts']) {
      expect((await new Browser(portal.app).get(url)).statusCode).toBe(401);
    }
  });

  it('groups the user accounts by accountId with their centre names joined', async () => {
    const lisi = await loggedIn(portal.app, 'lisi');
    const list = (await lisi.get('/api/account/list')).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      accountId: 'acct-lisi',
      clusterIds: ['11250', '11251', '11252'],
      centerNames: '合肥先进计算中心、昆山超算中心、无锡中心（停用）',
      centerNamesEn: 'Hefei Advanced Computing Center, Kunshan Supercomputing Center, Wuxi Center (disabled)',
      status: 'Normal',
      balance: 20000,
    });
    const demo = await loggedIn(portal.app, 'demo');
    const mine = dataOf<UserAccount[]>(await demo.get('/api/account/list'));
    expect(mine.map((a) => a.accountId)).toEqual(['acct-demo-hf', 'acct-demo-ks']);
    const admin = await loggedIn(portal.app, 'admin');
    expect((await admin.get('/api/account/list')).json().data).toEqual([]);
  });

  it('computes the alerts: low balance and near end for demo, disabled and low balance for wangwu', async () => {
    const demo = await loggedIn(portal.app, 'demo');
    const res = (await demo.get('/api/account/alerts')).json().data;
    expect(res).toMatchObject({ balanceThreshold: 100, expiryReminderDays: 7 });
    expect(res.alerts).toHaveLength(1);
    expect(res.alerts[0]).toMatchObject({
      accountId: 'acct-demo-ks',
      kinds: ['lowBalance', 'expiring'],
      daysLeft: 5,
      centerNames: '昆山超算中心',
    });
    const wangwu = await loggedIn(portal.app, 'wangwu');
    const { alerts } = dataOf<{ alerts: AccountAlert[] }>(await wangwu.get('/api/account/alerts'));
    expect(alerts.map((a) => [a.accountId, a.kinds])).toEqual([
      ['acct-wangwu-hf', ['disabled']],
      ['acct-wangwu-ks', ['lowBalance']],
    ]);
    // Six days on (and logged in again: the old session has long been idle), demo's account has ended.
    clock.advance(6 * DAY);
    expect((await demo.get('/api/account/alerts')).statusCode).toBe(401);
    const again = await loggedIn(portal.app, 'demo');
    const later = (await again.get('/api/account/alerts')).json().data.alerts;
    expect(later[0].kinds).toEqual(['lowBalance', 'expired']);
  });
});
