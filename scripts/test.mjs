// `npm test`: every check a submission must pass, in order of cost: lint and types (side by side), unit and route
// tests, the build, then the browser tests against the built portal. Prints one closing line `tests: N passed, N
// failed`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hpc-test-report-'));
let passed = 0;
let failedTests = 0;
const failedSteps = [];
/** Each failed test's file, name and first lines of its error: printed last, where a CI log's tail shows them. */
const failures = [];

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

/**
 * Runs steps side by side, each a chain of commands that stops at its first failure, and prints each step's output
 * whole when it ends (not interleaved). ESLint and tsc are single-threaded: on two cores, lint beside the type check
 * takes the longer of the two (about 4 minutes) instead of their sum.
 */
async function runSideBySide(steps) {
  const one = async ({ name, cmds, env = {} }) => {
    for (const [cmd, args] of cmds) {
      const started = Date.now();
      let out = `\n=== ${name}: ${cmd} ${args.join(' ')}\n`;
      const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
      out += `=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`;
      process.stdout.write(out);
      if (status !== 0) {
        failedSteps.push(name);
        return;
      }
    }
  };
  await Promise.all(steps.map(one));
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failedTests += report.numFailedTests ?? 0;
  for (const suite of report.testResults ?? []) {
    const file = path.relative(process.cwd(), suite.name ?? '');
    for (const t of suite.assertionResults ?? []) {
      if (t.status !== 'failed') continue;
      const message = (t.failureMessages ?? []).join('\n').split('\n').slice(0, 6).join('\n    ');
      failures.push(`${file} > ${t.fullName}\n    ${message}`);
    }
    // A file that fails before its tests run (an import error) has no assertion results, only its message.
    if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failures.push(
        `${file}\n    ${String(suite.message ?? '')
          .split('\n')
          .slice(0, 6)
          .join('\n    ')}`,
      );
    }
  }
}

const only = process.argv[2]; // `npm test -- unit` runs one step: lint, types, unit, e2e
const want = (s) => !only || only === s;

// Type-aware lint keeps its TypeScript programs in memory. One per workspace (13) peaked at 6.3 GB, over Node's
// default 4 GB heap (it died of it in CI); the four of eslint.config.js peak at 3.0 GB. It keeps 8 GB of room (the
// machines have 24), so that a growing code base does not bring that death back.
const LINT_HEAP = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=8192`.trim() };
await runSideBySide([
  ...(want('lint')
    ? [
        {
          name: 'lint',
          cmds: [
            ['npx', ['eslint', '.']],
            ['npx', ['prettier', '--check', '.']],
          ],
          env: LINT_HEAP,
        },
      ]
    : []),
  ...(want('types') ? [{ name: 'types', cmds: [['node', ['scripts/typecheck.mjs']]] }] : []),
]);
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

if (failures.length) console.log(`\nFailed tests:\n${failures.map((f) => `  ${f}`).join('\n')}`);
if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\ntests: ${passed} passed, ${failedTests} failed`);
process.exit(failedSteps.length || failedTests ? 1 : 0);
