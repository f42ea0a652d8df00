import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type AppServer } from './fastify';
import { trustedPeer } from './trust-proxy';

describe('TRUST_PROXY', () => {
  let app: AppServer | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('reads false, true, loopback, addresses and CIDR blocks, IPv4 peers of a dual-stack listener included', () => {
    expect(trustedPeer(undefined)).toBeNull();
    expect(trustedPeer('false')).toBeNull();
    expect(trustedPeer(false)).toBeNull();
    expect(trustedPeer('true')!('198.51.100.9')).toBe(true);
    const listed = trustedPeer(' 10.1.0.0/16, 192.0.2.7 ,loopback, fd00::/8')!;
    for (const a of ['10.1.200.3', '::ffff:10.1.0.1', '192.0.2.7', '127.0.0.1', '::1', 'fd00::5'])
      expect(listed(a), a).toBe(true);
    for (const a of ['10.2.0.1', '192.0.2.8', '::ffff:192.0.2.8', 'fe80::1', '203.0.113.7', ''])
      expect(listed(a), a).toBe(false);
  });

  it('refuses at start what is not an address, a block or a keyword, naming it', () => {
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.0/x', 'nginx.local', '::1/129', '10.0.0.1,'])
      expect(() => trustedPeer(bad), bad).toThrow(/TRUST_PROXY/);
    expect(() => createServer({ logLevel: 'silent', trustProxy: '300.1.1.1' })).toThrow(/"300\.1\.1\.1"/);
  });

  it('takes X-Forwarded-For and -Proto from a listed proxy only: another local account connecting past it cannot', async () => {
    app = createServer({ logLevel: 'silent', trustProxy: '10.0.0.2' });
    app.get('/who', async (req) => ({ ip: req.ip, protocol: req.protocol }));
    const who = async (remoteAddress: string) =>
      (
        await app!.inject({
          url: '/who',
          remoteAddress,
          headers: { 'x-forwarded-for': '10.9.8.1, 203.0.113.7', 'x-forwarded-proto': 'https' },
        })
      ).json<{ ip: string; protocol: string }>();
    expect(await who('10.0.0.2')).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    expect(await who('::ffff:10.0.0.2')).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    expect(await who('127.0.0.1')).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });
});
