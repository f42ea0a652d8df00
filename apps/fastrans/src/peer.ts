import fs from 'node:fs/promises';
import os from 'node:os';

/**
 * The local user behind a loopback TCP connection, as Linux tells it (issue 24 §3.1): the line of `/proc/net/tcp`
 * for the peer's end of the connection (its local port is our remote port, its remote port our local port) carries
 * the uid of the process that made that socket. Any account on a shared workstation or login node can connect to
 * 127.0.0.1, so the client asks this before it lets a connection drive it.
 *
 * `undefined` where the system does not tell (no `/proc/net/tcp`: macOS, Windows), `null` where it should but the
 * connection is not listed (it closed meanwhile): the caller refuses then.
 */
export async function loopbackPeerUid(peerPort: number, ourPort: number): Promise<number | null | undefined> {
  let text: string;
  try {
    text = await fs.readFile('/proc/net/tcp', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    const local = endpoint(f[1]!);
    const remote = endpoint(f[2]!);
    if (local?.port === peerPort && remote?.port === ourPort && local.loopback && remote.loopback)
      return Number(f[7]);
  }
  return null;
}

/** `0100007F:1F90` → 127.0.0.1:8080: the address is the kernel's 32-bit word in host byte order. */
function endpoint(text: string): { port: number; loopback: boolean } | null {
  const [addr, port] = text.split(':');
  if (!addr || !port || addr.length !== 8) return null;
  const bytes = Buffer.from(addr, 'hex');
  const first = os.endianness() === 'LE' ? bytes[3] : bytes[0];
  return { port: parseInt(port, 16), loopback: first === 127 };
}
