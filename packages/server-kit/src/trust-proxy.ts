import net from 'node:net';
import { Type } from 'typebox';

/**
 * `TRUST_PROXY`, the same in every service: `false` (the default: the peer is the client), a list of the reverse
 * proxies' addresses or CIDR blocks (`127.0.0.1,10.0.0.0/8`, `loopback` for 127.0.0.0/8 and ::1), or `true`, any peer
 * taken for the proxy. Only a listed peer's `X-Forwarded-For`/`-Proto`/`-Host` count: on a login node, any local
 * account reaches a port the proxy reaches, and with `true` it could name its own client address to the throttles.
 */
export const TrustProxySetting = Type.String({ default: 'false' });

/** Whether a connecting peer is the proxy in front, or null when no header of a proxy counts. */
export type TrustedPeer = ((address: string) => boolean) | null;

/** IPv4 peers of a dual-stack listener arrive as `::ffff:10.0.0.5`. */
const unmapped = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

export function trustedPeer(setting: string | boolean | undefined): TrustedPeer {
  const value = String(setting ?? 'false').trim();
  if (value === '' || value === 'false') return null;
  if (value === 'true') return () => true;
  const list = new net.BlockList();
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address = '', bits] = entry.split('/');
    const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
    const prefix = bits === undefined ? null : Number(bits);
    const max = family === 'ipv4' ? 32 : 128;
    if (!family || (prefix !== null && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= max)))
      throw new Error(
        `Invalid configuration:\n  TRUST_PROXY: "${entry}" is not true, false, loopback, an address or a CIDR block`,
      );
    if (prefix === null) list.addAddress(address, family);
    else list.addSubnet(address, prefix, family);
  }
  return (address) => {
    const a = unmapped(address);
    return list.check(a, net.isIPv4(a) ? 'ipv4' : 'ipv6');
  };
}
