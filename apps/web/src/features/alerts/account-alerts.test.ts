import { describe, expect, it } from 'vitest';
import type { AccountAlert } from '@hpc/contracts';
import { alertMessages, alertSignature, sortAlerts } from './account-alerts';

const END = Date.UTC(2026, 0, 13);

const alert = (over: Partial<AccountAlert> = {}): AccountAlert => ({
  accountId: 'acc-1',
  name: '课题组一',
  status: 'Normal',
  balance: 5000,
  endUseTime: null,
  createTime: 0,
  clusterIds: ['11250', '11251'],
  centerNames: '合肥先进计算中心、昆山超算中心',
  centerNamesEn: 'Hefei Advanced Computing Center, Kunshan Supercomputing Center',
  kinds: [],
  daysLeft: null,
  ...over,
});

describe('sortAlerts', () => {
  it('puts the most severe first and drops accounts without a reason', () => {
    const sorted = sortAlerts([
      alert({ accountId: 'soon', kinds: ['expiring'] }),
      alert({ accountId: 'none' }),
      alert({ accountId: 'low', kinds: ['lowBalance'] }),
      alert({ accountId: 'gone', kinds: ['lowBalance', 'expired'] }),
      alert({ accountId: 'off', kinds: ['lowBalance', 'disabled'] }),
    ]);
    expect(sorted.map((a) => a.accountId)).toEqual(['off', 'gone', 'low', 'soon']);
  });
});

describe('alertMessages', () => {
  it('gives a deactivated account only the deactivation notice, naming its centres in the language', () => {
    const off = alert({ status: 'Disable', balance: 0, kinds: ['disabled', 'lowBalance'] });
    expect(alertMessages(off, 'zh-CN', 100)).toEqual([
      {
        key: 'alerts.disabled',
        kind: 'disabled',
        params: { name: '课题组一', centers: '合肥先进计算中心、昆山超算中心' },
      },
    ]);
    expect(alertMessages(off, 'en-US', 100)[0]!.params.centers).toBe(
      'Hefei Advanced Computing Center, Kunshan Supercomputing Center',
    );
  });

  it('words a low balance with two decimals and the threshold', () => {
    expect(alertMessages(alert({ balance: 12.5, kinds: ['lowBalance'] }), 'zh-CN', 100)[0]).toMatchObject({
      key: 'alerts.lowBalance',
      params: { balance: '12.50', threshold: 100 },
    });
  });

  it('words an expiry with the days left and the date, and a past one as expired', () => {
    const soon = alert({ endUseTime: END, daysLeft: 3, kinds: ['expiring'] });
    expect(alertMessages(soon, 'zh-CN', 100)[0]).toMatchObject({
      key: 'alerts.expiring',
      params: { count: 3, date: END },
    });
    const past = alert({ endUseTime: END, daysLeft: -1, kinds: ['expired'] });
    expect(alertMessages(past, 'zh-CN', 100)[0]).toMatchObject({
      key: 'alerts.expired',
      params: { date: END },
    });
  });

  it('gives one sentence per reason, most severe first', () => {
    const both = alert({ balance: 1, endUseTime: END, daysLeft: 2, kinds: ['expiring', 'lowBalance'] });
    expect(alertMessages(both, 'en-US', 100).map((m) => m.kind)).toEqual(['lowBalance', 'expiring']);
  });
});

describe('alertSignature', () => {
  it('is the same for the same alerts in any order, and changes with a new reason', () => {
    const a = [
      alert({ accountId: 'a', kinds: ['lowBalance'] }),
      alert({ accountId: 'b', kinds: ['disabled'] }),
    ];
    expect(alertSignature(a)).toBe(alertSignature([...a].reverse()));
    const more = [alert({ accountId: 'a', kinds: ['expiring', 'lowBalance'] }), a[1]!];
    expect(alertSignature(more)).not.toBe(alertSignature(a));
  });
});
