import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spaIndexReader } from './app';
import { readPortalConfig } from './config';

describe('spaIndexReader', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('serves the index.html of a rebuild made while the portal runs, not the one it read first', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-index-'));
    dirs.push(dist);
    const read = spaIndexReader(readPortalConfig({ WEB_DIST: dist }));
    expect(read()).toBeNull();

    const index = path.join(dist, 'index.html');
    fs.writeFileSync(index, '<script src="/assets/index-aaaa.js"></script>');
    expect(read()?.toString()).toContain('index-aaaa.js');

    // A rebuild rewrites the file with new hashed names; give it a different mtime as a second build would have.
    fs.writeFileSync(index, '<script src="/assets/index-bbbbbbbb.js"></script>');
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(index, later, later);
    expect(read()?.toString()).toContain('index-bbbbbbbb.js');

    fs.rmSync(index);
    expect(read()).toBeNull();
  });
});
