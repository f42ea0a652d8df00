import fs from 'node:fs/promises';
import os from 'node:os';

/** One loopback TCP connection as this process sees it: the peer's end and ours. */
export interface LoopbackConnection {
  peerAddress: string;
  peerPort: number;
  ourAddress: string;
  ourPort: number;
}

/** `/proc/net/tcp`'s state of an established connection. */
const ESTABLISHED = '01';

/**
 * The local user behind a loopback TCP connection, as Linux tells it (issue 24 §3.1): the line of `/proc/net/tcp`
 * for the peer's end of the connection carries the uid of the process that made that socket. Any account on a
 * shared workstation or login node can connect to 127.0.0.1, so the client asks this before it lets a connection
 * drive it.
 *
 * The peer's line is found by the whole connection, both addresses and both ports, established: the ports alone are
 * not one connection. Every address of 127.0.0.0/8 is this machine, so another account could bind 127.0.0.2 to the
 * port of the owner's open page and be told the owner's uid (found from outside, 2026-12-01). Two lines for one
 * connection cannot be, and are refused as not listed.
 *
 * `undefined` where the system does not tell (no `/proc/net/tcp`: macOS, Windows), `null` where it should but the
 * connection is not listed once (it closed meanwhile): the caller refuses then.
 */
export async function loopbackPeerUid(c: LoopbackConnection): Promise<number | null | undefined> {
  let text: string;
  try {
    text = await fs.readFile('/proc/net/tcp', 'utf8');
  } catch {
    return undefined;
  }
  const uids: number[] = [];
  for (const line of text.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
    const f = line.trim().split(/\s+/);
    if (f.length < 8 || f[3] !== ESTABLISHED) continue;
    const local = endpoint(f[1]!);
    const remote = endpoint(f[2]!);
    if (
      local?.address === c.peerAddress &&
      local.port === c.peerPort &&
      remote?.address === c.ourAddress &&
      remote.port === c.ourPort
    )
      uids.push(Number(f[7]));
  }
  return uids.length === 1 ? uids[0]! : null;
}

/** `0100007F:1F90` → 127.0.0.1, 8080: the address is the kernel's 32-bit word in host byte order. */
export function endpoint(text: string): { address: string; port: number } | null {
  const [addr, port] = text.split(':');
  if (!addr || !port || addr.length !== 8) return null;
  const bytes = Buffer.from(addr, 'hex');
  const inOrder = os.endianness() === 'LE' ? [...bytes].reverse() : [...bytes];
  return { address: inOrder.join('.'), port: parseInt(port, 16) };
}
