// Type-checks every workspace with its own tsconfig (web has DOM types, servers node types).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const projects = [
  'packages/contracts',
  'packages/server-kit',
  'packages/api-client',
  'packages/cluster-kit',
  'apps/portal',
  'apps/efile',
  'apps/jobs',
  'apps/eshell',
  'apps/fastrans',
  'apps/all-in-one',
  'apps/web',
  'e2e',
  'bench',
  'test-support',
].filter((p) => fs.existsSync(`${p}/tsconfig.json`));
let failed = false;
for (const p of projects) {
  const r = spawnSync('npx', ['tsc', '-p', p], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
