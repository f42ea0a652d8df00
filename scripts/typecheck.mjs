// Type-checks the workspaces in the four programs of type-programs.mjs, not one per workspace.
// Fourteen programs, one per workspace, checked the shared packages and Node's types fourteen times: 188 s here, 51 s
// as four (docs/DECISIONS.md, "One type-check program for the Node workspaces").
import { spawnSync } from 'node:child_process';
import { typePrograms } from './type-programs.mjs';

let failed = false;
for (const p of typePrograms) {
  const r = spawnSync('npx', ['tsc', '-p', p], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
