import { defineConfig } from 'vitest/config';

// Unit and route tests of every workspace; browser tests have their own config in e2e/.
//
// The server tests share their worker processes (isolate: false): each file imported the servers' modules afresh,
// 352 of the run's ~1,300 worker-seconds, and the run took 651 s here; shared, 266 s (docs/DECISIONS.md, "Unit tests
// share their workers"). A file must therefore leave no state behind that another file could see: restore its spies
// and its environment variables, stop what it starts. The web tests keep a fresh process per file: they render with
// jsdom and mock modules (vi.mock), which a shared process would carry over, and they are quick anyway.
const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', 'apps/web/**'],
          isolate: false,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          ...timeouts,
        },
      },
    ],
  },
});
