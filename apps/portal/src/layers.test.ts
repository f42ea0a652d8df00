import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerLinter } from '../../../test-support/layer-lint';

/**
 * The layer rule of eslint.config.js (issue 14 §1) fires: the repository's own config, on small snippets linted as
 * if they were files of the portal. Only the import rule runs (no type information needed), so this is quick.
 */
describe('the portal layer rule', () => {
  const linter = layerLinter();
  const lint = (file: string, code: string) => linter(path.join('apps/portal/src', file), code);

  it("refuses a feature importing another feature's insides, and allows its index", async () => {
    expect(
      await lint('features/users/index.ts', "export { x } from '../identity/http/session-http';\n"),
    ).toEqual([expect.stringContaining('only through its index.ts')]);
    expect(
      await lint('features/catalog/seed/demo.ts', "export { x } from '../../identity/data/user.model';\n"),
    ).toEqual([expect.stringContaining('only through its index.ts')]);
    expect(await lint('features/users/index.ts', "export { x } from '../identity';\n")).toEqual([]);
    // Inside one feature, its own folders are free.
    expect(
      await lint('features/identity/http/auth.routes.ts', "export { x } from '../data/user.model';\n"),
    ).toEqual([]);
  });

  it('refuses a feature importing the app, and deps or db importing a feature', async () => {
    expect(
      await lint('features/identity/http/auth.routes.ts', "export { x } from '../../../app';\n"),
    ).toEqual([expect.stringContaining('no feature imports the app')]);
    expect(await lint('deps.ts', "export { x } from './features/catalog';\n")).toEqual([
      expect.stringContaining('import none'),
    ]);
    expect(await lint('db/database.ts', "export type { X } from '../features/identity';\n")).toEqual([
      expect.stringContaining('import none'),
    ]);
    expect(await lint('deps.ts', "export { x } from './keys/signing-keys';\n")).toEqual([]);
  });
});
