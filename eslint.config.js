// Type-aware lint for the whole monorepo. The dependency direction of DESIGN.md §3 is a rule here:
// contracts imports nothing of ours, web never imports server code, apps never import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const restrict = (patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/*.mjs', '**/*.cjs', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['packages/contracts/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['@hpc/*'], message: 'contracts imports nothing of ours' },
      ]),
    },
  },
  {
    files: ['apps/web/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['@hpc/server-kit', '@hpc/portal', '@hpc/efile', 'fastify', 'kysely'],
          message: 'web never imports server code',
        },
      ]),
    },
  },
  {
    files: ['apps/portal/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['@hpc/efile', '@hpc/web'], message: 'apps never import each other' },
      ]),
    },
  },
  {
    files: ['apps/efile/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['@hpc/portal', '@hpc/web'], message: 'apps never import each other' },
      ]),
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/*.test-fixture.ts', 'e2e/**', 'bench/**', 'test-support/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  prettier,
);
