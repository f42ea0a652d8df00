import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
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

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function tarEntry(name: string, data: Buffer): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(data.length, 12), 124);
  h.write(octal(Math.floor(Date.now() / 1000), 12), 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\u000000', 257);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148);
  return Buffer.concat([h, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** The per-download tail: the config file naming `origin`, and the end of the archive, gzipped. */
export function packageTail(origin: string): Buffer {
  const config = { portal: origin, allowedOrigins: [origin], ports: [...FASTRANS_PORTS] };
  const entry = tarEntry(
    'fasttrans-client/fastrans.json',
    Buffer.from(JSON.stringify(config, null, 2) + '\n'),
  );
  return zlib.gzipSync(Buffer.concat([entry, Buffer.alloc(1024)]));
}
