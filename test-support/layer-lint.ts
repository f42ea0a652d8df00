import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The layer rules of the repository's own eslint.config.js on a snippet linted as if it were the file at `file`
 * (relative to the repository, there or not): the messages they give. Only the import rule runs, without types (a
 * snippet is in no TypeScript project, and the rule reads import paths only), so this is quick.
 */
export function layerLinter(): (file: string, code: string) => Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: path.join(root, 'eslint.config.js'),
    overrideConfig: [{ languageOptions: { parserOptions: { projectService: false, project: null } } }],
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  });
  return async (file, code) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    const fatal = result!.messages.filter((m) => m.fatal);
    if (fatal.length > 0) throw new Error(`${file}: ${fatal.map((m) => m.message).join('; ')}`);
    return result!.messages.map((m) => m.message);
  };
}
