import { describe, expect, it } from 'vitest';
import { layerLinter } from '../test-support/layer-lint';

/**
 * The layer rules of eslint.config.js (issue 23 §4), shown failing on planted imports in the portal, efile and the
 * web app: a file that is not there, linted as if it were at `file`. Only the import rule runs, without types (a
 * planted file is in no TypeScript project, and the rule reads import paths only).
 */
const lint = layerLinter();

async function refusals(file: string, from: string): Promise<string[]> {
  return lint(file, `import type { X } from '${from}';\nexport type Y = X;\n`);
}

const intoFeature = /another feature only through its index\.ts/;
const below = /sits below/;

/** Each planted import: the file it is planted in, what it imports, and the refusal expected (null: allowed). */
type Plant = [file: string, from: string, refusal: RegExp | null];

async function check(plants: Plant[]) {
  for (const [file, from, refusal] of plants)
    expect(await refusals(file, from), `${from} in ${file}`).toEqual(
      refusal ? [expect.stringMatching(refusal)] : [],
    );
}

describe('the layer rules fail on an import against the layers', () => {
  it('in the portal: a feature reaching into another, deps importing a feature', () =>
    check([
      ['apps/portal/src/features/site/planted.ts', '../catalog/catalog.repository', intoFeature],
      ['apps/portal/src/features/site/planted.ts', '../catalog', null],
      ['apps/portal/src/deps.ts', './features/catalog', /deps and db sit below the features/],
    ]));

  it('in efile: a feature reaching into another, and each lower layer importing one above it', () =>
    check([
      ['apps/efile/src/features/share/planted.ts', '../download/download.service', intoFeature],
      ['apps/efile/src/features/share/planted.ts', '../download', null],
      ['apps/efile/src/features/share/deep/planted.ts', '../../../app', /no feature imports the app/],
      ['apps/efile/src/fs/planted.ts', '../userfs/types', below],
      ['apps/efile/src/userfs/planted.ts', '../deps', below],
      ['apps/efile/src/userfs/planted.ts', '../http/context', below],
      ['apps/efile/src/deps.ts', './http/auth', below],
      ['apps/efile/src/http/planted.ts', '../features/download', below],
      // Downwards is the order: http on deps and userfs, userfs on fs.
      ['apps/efile/src/http/planted.ts', '../deps', null],
      ['apps/efile/src/userfs/planted.ts', '../fs/names', null],
    ]));

  it('in the web app: a feature reaching into another, shared importing a feature', () =>
    check([
      ['apps/web/src/features/jobs/planted.tsx', '../dashboard/dashboard-page', intoFeature],
      ['apps/web/src/shared/planted.ts', '../features/jobs', /shared sits below the features/],
    ]));
});
