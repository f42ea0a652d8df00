// Writes `<file>.br` and `<file>.gz` beside each text file of the built web app, once, at build time; the portal
// serves them to browsers that accept them (@fastify/static `preCompressed`). The app's first load is ~1 MB of
// JavaScript served as it is; a researcher on a slow provincial link waits for every byte, and the size budget of
// report-size.mjs was already counted in gzip. Compressing per request would spend the portal's CPU on the same bytes
// again and again; brotli's best level is too slow for that and fine for a build.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What is worth compressing: text. Images and fonts are compressed formats already. */
const TEXT = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest']);
/** Below this the headers cost more than the bytes saved. */
const MIN_BYTES = 1024;

/**
 * Compresses every text file under `dir` (Vite's own `.vite` folder aside) and keeps a compressed copy only where
 * it is at least a tenth smaller: without it the original is served. Returns the bytes before and after brotli.
 */
export async function precompress(dir) {
  const files = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.vite') walk(p);
      } else if (e.isFile() && TEXT.has(path.extname(e.name))) files.push(p);
    }
  };
  walk(dir);
  let raw = 0;
  let br = 0;
  // Side by side: zlib's asynchronous calls run on the thread pool, so both cores work.
  await Promise.all(
    files.map(async (file) => {
      const data = fs.readFileSync(file);
      if (data.length < MIN_BYTES) return;
      const [b, g] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzip(data, { level: 9 }),
      ]);
      raw += data.length;
      br += Math.min(b.length, data.length);
      if (b.length < data.length * 0.9) fs.writeFileSync(`${file}.br`, b);
      if (g.length < data.length * 0.9) fs.writeFileSync(`${file}.gz`, g);
    }),
  );
  return { files: files.length, raw, br };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The web app's dist, or the folder given (the test's).
  const dist = process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
  const started = Date.now();
  const r = await precompress(dist);
  console.log(
    `precompress: ${r.files} text files, ${(r.raw / 1024).toFixed(0)} KB → ${(r.br / 1024).toFixed(0)} KB brotli (${Date.now() - started} ms)`,
  );
}
