// Builds what `npm start` runs: the web app (only when its sources changed, unless --force) and the server bundles.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServers } from './build-servers.mjs';
import { buildFastrans } from './build-fastrans.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

export function webIsStale() {
  const index = path.join(root, 'apps/web/dist/index.html');
  if (!fs.existsSync(index)) return true;
  const built = fs.statSync(index).mtimeMs;
  const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contracts/src']
    .map((p) => path.join(root, p))
    .filter((p) => fs.existsSync(p))
    .map((p) => (fs.statSync(p).isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs));
  return Math.max(...sources) > built;
}

export async function buildAll({ force = false } = {}) {
  if (force || webIsStale()) {
    console.log('Building the web app…');
    const r = spawnSync('npm', ['run', 'build', '-w', '@hpc/web'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('web build failed');
  }
  await buildServers();
  await buildFastrans({ force });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildAll({ force: process.argv.includes('--force') });
}
