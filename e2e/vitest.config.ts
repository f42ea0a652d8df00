import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: one built portal and one Chromium per file, files one after another (they share two CPU cores
// and each starts a server), with timeouts that allow for a cold start.
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // vitest's default gives `expect.poll` one second. On two shared cores a delete or a rename the browser has
    // sent can take longer to reach the disk (CI, 2026-11-29: a Delete key's deletion missed the second); a poll
    // that names its own timeout keeps it.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    maxWorkers: 1,
  },
});
