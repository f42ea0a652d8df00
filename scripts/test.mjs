// `npm test`: every check a submission must pass, in order of cost: lint, types, unit and route tests, the build,
// then the browser tests against the built portal. Prints one closing line `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-test-report-'));
let passed = 0;
let failedTests = 0;
const failedSteps = [];

function run(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(
    `=== ${name}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (r.status !== 0) failedSteps.push(name);
  return r.status === 0;
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failedTests += report.numFailedTests ?? 0;
}

const only = process.argv[2]; // `npm test -- unit` runs one step: lint, types, unit, e2e
const want = (s) => !only || only === s;

// Type-aware lint keeps one TypeScript program per workspace in memory (13 of them): 5.5 GB at its peak, over
// Node's default 4 GB heap (it died of it in CI), so it gets 8 GB (the machines have 24).
const LINT_HEAP = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=8192`.trim() };
if (want('lint'))
  run('lint', 'npx', ['eslint', '.'], LINT_HEAP) && run('format', 'npx', ['prettier', '--check', '.']);
if (want('types')) run('types', 'node', ['scripts/typecheck.mjs']);
if (want('unit')) {
  const file = path.join(outDir, 'unit.json');
  run('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]);
  countVitest(file);
}
if (want('e2e')) {
  if (run('build', 'node', ['scripts/build.mjs'])) {
    const file = path.join(outDir, 'e2e.json');
    run('e2e', 'npx', [
      'vitest',
      'run',
      '--config',
      'e2e/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ]);
    countVitest(file);
  }
}

if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\ntests: ${passed} passed, ${failedTests} failed`);
process.exit(failedSteps.length || failedTests ? 1 : 0);
