import net from 'node:net';

/**
 * The one caller behind a client address, for what is counted per caller (failed logins and share codes per
 * address, a model's downloads a day): an IPv4 address itself, but the whole loopback block 127.0.0.0/8 as one (any
 * local account may send from any of its 16 million addresses: found from outside, 2026-12-01, 50 downloads counted
 * from 127.0.10.1-50), and an IPv6 address by its /64, what one customer or host is given. An IPv4 address mapped
 * into IPv6 (`::ffff:a.b.c.d`, a dual-stack listener) counts as the IPv4 one.
 */
export function callerKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  if (net.isIPv4(ip)) return ip.startsWith('127.') ? '127.0.0.0/8' : ip;
  if (!net.isIPv6(ip)) return address;
  if (ip === '::1') return '::1';
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, each without leading zeros (`::` and an embedded IPv4 tail expanded). */
function expandIPv6(ip: string): string[] {
  let text = ip.replace(/%.*$/, '');
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros: string[] =
    tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
