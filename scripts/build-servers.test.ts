import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServers } from './build-servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'build-servers-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Bundles a one-line entry in a temp folder (paths are given relative to the repository, as `entries` are). */
async function bundle(source: string) {
  const src = path.join(tmp, `entry-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(src, source);
  await buildServers([[path.relative(root, src), path.relative(root, src.replace(/\.ts$/, '.js'))]]);
}

describe('server bundles', () => {
  it('refuse an entry that pulls in a test helper', async () => {
    const fixture = path.join(root, 'packages/server-kit/src/testing.test-fixture.ts');
    await expect(
      bundle(`import { makeTempDir } from '${fixture}';\nconsole.log(makeTempDir);\n`),
    ).rejects.toThrow(/would bundle test helpers: .*testing\.test-fixture\.ts/);
  });

  it('build an entry that does not', async () => {
    const limits = path.join(root, 'packages/contracts/src/limits.ts');
    await expect(
      bundle(`import { Limits } from '${limits}';\nconsole.log(Limits);\n`),
    ).resolves.toBeUndefined();
  });
});
