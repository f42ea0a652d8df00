// `npm run admin -- <command> …`: the operators' command-line tool (apps/portal/src/cli/admin.ts), run from source.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const r = spawnSync(
  'npx',
  ['tsx', path.join(root, 'apps/portal/src/cli/admin.ts'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(r.status ?? 1);
