import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built worker bundle of a service (`<service>-worker.js` in `apps/<service>/dist`, or the `file` named), found
 * from the module at
 * `from` (the caller's `import.meta.url`): `override` first (the service's `<SERVICE>_WORKER_SCRIPT`), then the
 * service's dist seen from its src (tests, dev), from its dist itself (its own bundle), from the all-in-one's dist
 * beside it, and last through the service's package `@hpc/<service>`. Undefined when it is not built: the caller
 * then runs its worker's .ts under tsx. The bundle matters: a worker then starts in milliseconds (under tsx each new
 * uid compiles every module anew).
 */
export function findWorkerBundle(
  from: string,
  service: string,
  override?: string,
  file = `${service}-worker.js`,
): string | undefined {
  const here = path.dirname(fileURLToPath(from));
  const bundle = file;
  const candidates = [
    override ?? '',
    path.resolve(here, '../../dist', bundle),
    path.join(here, bundle),
    path.resolve(here, '../..', service, 'dist', bundle),
  ].filter(Boolean);
  try {
    const pkg = createRequire(from).resolve(`@hpc/${service}/package.json`);
    candidates.push(path.join(path.dirname(pkg), 'dist', bundle));
  } catch {
    /* not resolvable from here */
  }
  return candidates.find((c) => fs.existsSync(c));
}
