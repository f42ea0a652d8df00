import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import tar from 'tar-stream';
import { FASTRANS_PORTS } from '@hpc/contracts';

/**
 * The fast-transfer client package (built by scripts/build-fastrans.mjs) as served at
 * /share/fasttrans-client.tar.gz: the prebuilt gzip member of its tar entries, then a small gzip member made per
 * download with `fasttrans-client/fastrans.json` (the origin of this portal) and the end of the archive. A gzip file
 * may hold several members; tar and gunzip read them as one stream.
 */
export function packagePath(env: NodeJS.ProcessEnv = process.env): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    env.FASTRANS_PACKAGE,
    // From the TypeScript source (tests, tsx) and from a bundle in apps/<app>/dist.
    path.resolve(here, '../../../../fastrans/dist/fasttrans-client.tar.gz.part'),
    path.resolve(here, '../../fastrans/dist/fasttrans-client.tar.gz.part'),
  ];
  return candidates.find((p): p is string => !!p && fs.existsSync(p)) ?? null;
}

const originOf = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The origins a downloaded client lets drive it (issue 24 §3.6): the operator's PUBLIC_URL, or else the addresses
 * this portal is bound to, never a request header. A `Host: evil.example` on the download used to become the
 * package's allowed origin, so a page of that site could drive the victim's client. Bound to every address, the
 * portal names each of this machine's addresses and the loopback names; a portal reached by a DNS name or behind a
 * proxy needs PUBLIC_URL (docs/OPERATIONS.md). The first is where the command line logs in.
 */
export function packageOrigins(publicUrl: string, bound: AddressInfo | string | null): string[] {
  if (publicUrl) return [new URL(publicUrl).origin];
  if (!bound || typeof bound === 'string') return [];
  const { address, port } = bound;
  const loopback = [originOf('localhost', port), originOf('127.0.0.1', port)];
  if (address === '127.0.0.1' || address === '::1')
    return [...new Set([originOf(address, port), ...loopback])];
  if (address !== '0.0.0.0' && address !== '::') return [originOf(address, port)];
  const mine = Object.values(os.networkInterfaces())
    .flat()
    .filter((i): i is os.NetworkInterfaceInfo => !!i && !i.internal)
    // An IPv6 link-local address needs a zone id, which an origin cannot carry.
    .filter((i) => address === '::' || i.family === 'IPv4')
    .filter((i) => !i.address.startsWith('fe80:'))
    .map((i) => originOf(i.address, port));
  return [...new Set([...mine, ...loopback])];
}

/**
 * The per-download tail: the config file naming the `origins` and, downloaded by a logged-in user, that user's
 * `clientKey` (base64url), and the end of the archive (tar-stream), gzipped.
 */
export async function packageTail(origins: string[], clientKey?: string): Promise<Buffer> {
  const config = {
    portal: origins[0] ?? '',
    allowedOrigins: origins,
    ports: [...FASTRANS_PORTS],
    ...(clientKey ? { clientKey } : {}),
  };
  const pack = tar.pack();
  pack.entry(
    // With a key, readable by its owner only once unpacked (another account on a shared machine must not read it).
    { name: 'fasttrans-client/fastrans.json', mode: clientKey ? 0o600 : 0o644 },
    Buffer.from(JSON.stringify(config, null, 2) + '\n'),
  );
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const chunk of pack) parts.push(chunk);
  return zlib.gzipSync(Buffer.concat(parts));
}
