import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

// The web build's last step (apps/web/scripts/precompress.mjs): what it compresses, what it leaves, and that the
// compressed copies are the files' own bytes. The portal's serving of them is tested in site.test.ts.
const script = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../apps/web/scripts/precompress.mjs',
);

describe('precompress', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes .br and .gz beside text files that shrink, and leaves small, binary and incompressible ones', () => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.mkdirSync(path.join(dir, '.vite'));
    const js = Buffer.from('export function hello(name) { return `你好, ${name}`; }\n'.repeat(300));
    const css = Buffer.from('.efile-table td { padding: 4px 8px; }\n'.repeat(200));
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), js);
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc.css'), css);
    fs.writeFileSync(path.join(dir, 'assets', 'small.js'), 'export {};\n');
    // Random bytes do not shrink: served as they are.
    fs.writeFileSync(
      path.join(dir, 'assets', 'noise.js'),
      Buffer.from(crypto.getRandomValues(new Uint8Array(8192))),
    );
    fs.writeFileSync(path.join(dir, 'assets', 'logo.png'), Buffer.alloc(4096, 1));
    fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify({ a: 'b'.repeat(4096) }));

    const out = execFileSync(process.execPath, [script, dir], { encoding: 'utf8' });
    expect(out).toMatch(/^precompress: 4 text files/);

    expect(
      zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'assets', 'index-abc.js.br'))).equals(js),
    ).toBe(true);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'assets', 'index-abc.js.gz'))).equals(js)).toBe(
      true,
    );
    expect(
      zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'assets', 'index-abc.css.br'))).equals(css),
    ).toBe(true);
    const left = (f: string) => [`${f}.br`, `${f}.gz`].filter((p) => fs.existsSync(path.join(dir, p)));
    expect(left('assets/small.js')).toEqual([]);
    expect(left('assets/noise.js')).toEqual([]);
    expect(left('assets/logo.png')).toEqual([]);
    expect(left('.vite/manifest.json')).toEqual([]);
  });
});
