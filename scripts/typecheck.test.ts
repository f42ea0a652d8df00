import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { typePrograms } from './type-programs.mjs';

// `npm run typecheck` checks four programs (scripts/type-programs.mjs), not each workspace's own tsconfig: a file that
// its workspace's tsconfig includes but none of the four does would go unchecked. This test makes that fail.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function filesOf(config: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${config}`);
  return parsed.fileNames.map((f) => path.relative(root, f));
}

describe('the type-check programs', () => {
  it('include every file that a workspace tsconfig includes', () => {
    const checked = new Set(typePrograms.flatMap(filesOf));
    const workspaces = [
      ...['apps', 'packages'].flatMap((d) => fs.readdirSync(path.join(root, d)).map((w) => `${d}/${w}`)),
      ...['e2e', 'bench', 'test-support'],
    ]
      .map((w) => `${w}/tsconfig.json`)
      .filter((f) => fs.existsSync(path.join(root, f)));
    expect(workspaces.length).toBeGreaterThan(12);
    const missed = workspaces.flatMap(filesOf).filter((f) => !checked.has(f));
    expect(missed).toEqual([]);
  });
});
