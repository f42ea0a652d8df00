import fs from 'node:fs';
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

/** The per-download tail: the config file naming `origin`, and the end of the archive (tar-stream), gzipped. */
export async function packageTail(origin: string): Promise<Buffer> {
  const config = { portal: origin, allowedOrigins: [origin], ports: [...FASTRANS_PORTS] };
  const pack = tar.pack();
  pack.entry(
    { name: 'fasttrans-client/fastrans.json', mode: 0o644 },
    Buffer.from(JSON.stringify(config, null, 2) + '\n'),
  );
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const chunk of pack) parts.push(chunk);
  return zlib.gzipSync(Buffer.concat(parts));
}
