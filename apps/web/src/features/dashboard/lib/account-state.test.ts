import { describe, expect, it } from 'vitest';
import { accountFlags } from './account-state';

const DAY = 24 * 3600_000;

describe('dashboard account flags (spec §4: threshold 100, 7 days)', () => {
  const now = Date.UTC(2026, 0, 1);
  it('flags a low balance, a near end and a past one', () => {
    expect(accountFlags({ status: 'Normal', balance: 100, endUseTime: now + 7 * DAY }, now)).toEqual({
      flags: ['lowBalance', 'expiring'],
      daysLeft: 7,
    });
    expect(accountFlags({ status: 'Normal', balance: 100.01, endUseTime: now + 8 * DAY }, now).flags).toEqual(
      [],
    );
    expect(accountFlags({ status: 'Normal', balance: 5000, endUseTime: now - 1 }, now).flags).toEqual([
      'expired',
    ]);
    expect(accountFlags({ status: 'Disable', balance: 5000, endUseTime: null }, now)).toEqual({
      flags: ['disabled'],
      daysLeft: null,
    });
  });
});
