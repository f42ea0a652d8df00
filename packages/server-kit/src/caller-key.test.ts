import { describe, expect, it } from 'vitest';
import { callerKey } from './caller-key';

describe('callerKey', () => {
  it('an IPv4 address is its own caller, but all of loopback is one', () => {
    expect(callerKey('192.0.2.7')).toBe('192.0.2.7');
    expect(callerKey('192.0.2.8')).not.toBe(callerKey('192.0.2.7'));
    expect(callerKey('127.0.0.1')).toBe(callerKey('127.0.10.42'));
    expect(callerKey('::ffff:127.0.10.1')).toBe('127.0.0.0/8');
    expect(callerKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('an IPv6 address counts by its /64, however it is written', () => {
    expect(callerKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(callerKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(callerKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(callerKey('2001:db8:1:3::1')).not.toBe(callerKey('2001:db8:1:2::1'));
    expect(callerKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(callerKey('::1')).toBe('::1');
    expect(callerKey('64:ff9b::192.0.2.7')).toBe('64:ff9b:0:0::/64');
  });

  it('anything else is kept as it is', () => {
    expect(callerKey('unknown')).toBe('unknown');
  });
});
