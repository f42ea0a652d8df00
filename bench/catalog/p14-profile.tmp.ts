import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { openPortalDeps, readPortalConfig, seedSyntheticCatalog } from '@hpc/portal';
const dataDir = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'p14prof-'));
if (!fs.existsSync(path.join(dataDir, 'portal.db'))) {
  const deps = await openPortalDeps(readPortalConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent' }));
  await seedSyntheticCatalog(deps.db, { models: 20000, images: 2000 });
  await deps.close();
}
console.log(dataDir);
