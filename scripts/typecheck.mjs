// Type-checks the workspaces in four programs: every Node workspace in one (tsconfig.node.json: they share one
// setup), the web app (DOM types, JSX), the browser tests (DOM types for page.evaluate) and the root's scripts.
// Fourteen programs, one per workspace, checked the shared packages and Node's types fourteen times: 188 s here, 51 s
// as four (docs/DECISIONS.md, "One type-check program for the Node workspaces").
import { spawnSync } from 'node:child_process';

const projects = ['tsconfig.node.json', 'apps/web', 'e2e', '.'];
let failed = false;
for (const p of projects) {
  const r = spawnSync('npx', ['tsc', '-p', p], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
