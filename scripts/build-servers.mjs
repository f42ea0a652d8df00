// Bundles each server entry with esbuild into its app's dist/: our workspace packages (@hpc/*, TypeScript source)
// are bundled in, every npm dependency stays external and is loaded from node_modules at run time.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const entries = [
  ['apps/all-in-one/src/main.ts', 'apps/all-in-one/dist/main.js'],
  ['apps/portal/src/server.ts', 'apps/portal/dist/server.js'],
  ['apps/portal/src/cli/admin.ts', 'apps/portal/dist/admin.js'],
  ['apps/efile/src/server.ts', 'apps/efile/dist/server.js'],
  // Unix mode's root launcher and per-user worker (issue 10): one small bundle, so a worker starts in milliseconds.
  ['apps/efile/src/userfs/worker-main.ts', 'apps/efile/dist/efile-worker.js'],
  // efile's store thread (small files of fast transfer, fs/small-store.ts), started by the server and by the worker.
  ['apps/efile/src/fs/store-thread.ts', 'apps/efile/dist/efile-store-thread.js'],
  // The job service of one cluster (issue 22), and its per-user worker (the kit's launcher and worker roles).
  ['apps/jobs/src/server.ts', 'apps/jobs/dist/server.js'],
  ['apps/jobs/src/worker/job-worker-main.ts', 'apps/jobs/dist/jobs-worker.js'],
  // The shell service of one cluster (issue 26).
  ['apps/eshell/src/server.ts', 'apps/eshell/dist/server.js'],
];

const externalizeNpm = {
  name: 'externalize-npm',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@hpc/') || path.isAbsolute(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Test helpers follow one convention: `*.test-fixture.ts` beside the tests that use them (the `./testing` export of
 * server-kit is one too). A production bundle that pulls one in fails the build, so a stray import from server code
 * cannot ship a test key, a fake clock or a temp-dir helper.
 */
const TEST_ONLY = /\.test(-fixture)?\.tsx?$/;

export async function buildServers(only = entries) {
  const fs = await import('node:fs');
  for (const [src, out] of only) {
    if (!fs.existsSync(path.join(root, src))) continue;
    const result = await build({
      entryPoints: [path.join(root, src)],
      outfile: path.join(root, out),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
      plugins: [externalizeNpm],
      metafile: true,
      // Written below under a temp name, then renamed: test files build the worker bundles in their setup while
      // another file's service may be starting workers from them, and esbuild's own write truncates the file first.
      write: false,
      // The bundle sits in <app>/dist; code that finds files relative to itself (web dist, seed content) works
      // from both src/ and dist/ because both are one level below the app folder.
    });
    const testOnly = Object.keys(result.metafile.inputs).filter((input) => TEST_ONLY.test(input));
    if (testOnly.length) throw new Error(`${out} would bundle test helpers: ${testOnly.join(', ')}`);
    for (const file of result.outputFiles) {
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      const temp = `${file.path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      fs.writeFileSync(temp, file.contents);
      fs.renameSync(temp, file.path);
    }
  }
}

/** Just the efile server bundle (the crash test restarts it: a bundle starts without compiling anything). */
export const buildEfileServer = () =>
  buildServers(entries.filter(([src]) => src === 'apps/efile/src/server.ts' || src.includes('store-thread')));

/** Just the efile worker bundle (the unix-mode tests build it before they start workers). */
export const buildEfileWorker = () =>
  buildServers(entries.filter(([src]) => src.includes('userfs/worker-main') || src.includes('store-thread')));

/** Just the job service's worker bundle (its tests on the real Slurm build it before they start workers). */
export const buildJobsWorker = () => buildServers(entries.filter(([src]) => src.includes('job-worker-main')));

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServers();
}
