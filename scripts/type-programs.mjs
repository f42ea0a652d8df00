// The four TypeScript programs that type-check and type-lint the repository, as tsconfig paths from its root: every
// Node workspace in one (tsconfig.node.json: they share one setup), the web app (DOM types, JSX), the browser tests
// (DOM types for page.evaluate) and the root's scripts. `npm run typecheck` (typecheck.mjs), eslint's typed rules
// and the test that no file escapes them (typecheck.test.ts) all read this list.
export const typePrograms = [
  'tsconfig.node.json',
  'apps/web/tsconfig.json',
  'e2e/tsconfig.json',
  'tsconfig.json',
];
