import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerLinter } from '../../../test-support/layer-lint';

/**
 * The web's layer rule of eslint.config.js (issue 23 §4): the repository's own config on small snippets linted as
 * if they were files of the web app. Only the import rule runs (no type information needed), so this is quick.
 */
describe('the web layer rule', () => {
  const linter = layerLinter();
  const lint = (file: string, code: string) => linter(path.join('apps/web/src', file), code);
  const INSIDES = 'only through its index.ts';

  it("refuses a feature importing another feature's insides, at any depth, and allows its index", async () => {
    expect(
      await lint('features/efile/efile.loader.ts', "export { x } from '../account/use-session';\n"),
    ).toEqual([expect.stringContaining(INSIDES)]);
    expect(
      await lint(
        'features/models/components/model-files.tsx',
        "import { x } from '../../efile/lib/paths';\n",
      ),
    ).toEqual([expect.stringContaining(INSIDES)]);
    expect(
      await lint(
        'features/efile/actions/edit/rename.action.tsx',
        "export { x } from '../../../clusters/use-clusters';\n",
      ),
    ).toEqual([expect.stringContaining(INSIDES)]);
    expect(
      await lint('features/models/components/model-files.tsx', "import { x } from '../../account';\n"),
    ).toEqual([]);
    // Inside one feature, its own folders are free; shared is below every feature.
    expect(
      await lint(
        'features/efile/components/file-table.tsx',
        "import { x } from '../lib/paths';\nimport { y } from '../../../shared/utils/format-size';\n",
      ),
    ).toEqual([]);
  });

  it('refuses a feature importing the app, and shared importing a feature or the app', async () => {
    expect(
      await lint(
        'features/efile/preview/editor-dialog.tsx',
        "import { x } from '../../../app/preferences';\n",
      ),
    ).toEqual([expect.stringContaining('no feature imports the app')]);
    expect(
      await lint('features/efile/efile.loader.ts', "import type { X } from '../../app/routes';\n"),
    ).toEqual([expect.stringContaining('no feature imports the app')]);
    expect(await lint('shared/ui/filter-panel.tsx', "import { x } from '../../features/account';\n")).toEqual(
      [expect.stringContaining('imports neither')],
    );
    expect(await lint('shared/api/notify.ts', "import { x } from '../../app/preferences';\n")).toEqual([
      expect.stringContaining('imports neither'),
    ]);
    // The app composes the features: its route table names each page's module.
    expect(await lint('app/routes.tsx', "export { x } from '../features/efile/efile.loader';\n")).toEqual([]);
  });

  it('still refuses server code anywhere in the web', async () => {
    expect(await lint('features/efile/index.ts', "import { x } from '@hpc/server-kit';\n")).toEqual([
      expect.stringContaining('web never imports server code'),
    ]);
  });
});
