// Type-aware lint for the whole monorepo. The dependency direction of DESIGN.md §3 is a rule here:
// contracts imports nothing of ours, web never imports server code, apps never import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { typePrograms } from './scripts/type-programs.mjs';

const restrict = (patterns) => ['error', { patterns }];

const esc = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The layers of a server app (issue 14 §1): deps and db import no feature; a feature imports another feature only
 * through its index.ts; no feature imports the app (app.ts or app/): {@link featureRules}. Tests and their fixtures
 * may reach anywhere (they are not part of the product's graph). `ignoreFeatures` are left out while they still
 * import another feature's insides (they are another engineer's to change). `below` names the app's layers under
 * its features, lowest first (see {@link lowerLayerRules}).
 */
function layerRules(app, base, { ignoreFeatures = [], below = [] } = {}) {
  const src = `apps/${app}/src`;
  const tests = [
    '**/*.test.ts',
    '**/*.test-fixture.ts',
    ...ignoreFeatures.map((f) => `${src}/features/${f}/**`),
  ];
  const blocks = [
    {
      files: [`${src}/deps.ts`, `${src}/db/**/*.ts`],
      ignores: tests,
      rules: {
        'no-restricted-imports': restrict([
          ...base,
          { regex: '(^|/)features(/|$)', message: 'deps and db sit below the features: they import none' },
        ]),
      },
    },
  ];
  return [...blocks, ...featureRules(src, '*.ts', base, tests), ...lowerLayerRules(app, base, below)];
}

/**
 * The rules of a feature, server's or web's: it imports another feature only through its index.ts and never the
 * app (app.ts or app/). Relative paths say where an import points only together with the importing file's depth,
 * so there is one block per depth below `features/<name>/`, for the files named `pattern` there.
 */
function featureRules(src, pattern, base, tests) {
  return [0, 1, 2, 3].map((depth) => {
    // From a file `depth` folders below features/<name>/, this many `../` lead to features/, one more to src/.
    const up = '../'.repeat(depth + 1);
    return {
      files: [`${src}/features/*/${'*/'.repeat(depth)}${pattern}`],
      ignores: tests,
      rules: {
        'no-restricted-imports': restrict([
          ...base,
          {
            regex: `^${esc(up)}[^./][^/]*/.+`,
            message: "a feature imports another feature only through its index.ts ('../<feature>')",
          },
          {
            regex: `^${esc(up)}\\.\\./app(/.*)?$`,
            message: 'no feature imports the app: the app imports the features',
          },
        ]),
      },
    };
  });
}

/**
 * The layers under a server app's features, lowest first (efile's, issue 23 §4: `fs/` → `userfs/` → `deps.ts` →
 * `http/`): each imports none of the layers after it, nor the features or the app. A folder's files at any depth;
 * a name ending in `.ts` is a file of `src/`. Its block comes after the deps block of {@link layerRules} and so
 * replaces it for deps.ts (features are above every layer here too).
 */
function lowerLayerRules(app, base, below) {
  const src = `apps/${app}/src`;
  const label = (l) => (l.endsWith('.ts') ? l : `${l}/`);
  return below.map((layer, i) => {
    const above = [...below.slice(i + 1), 'features'];
    const names = [...above, 'app'].map((l) => esc(l.replace(/\.ts$/, '')));
    return {
      files: layer.endsWith('.ts') ? [`${src}/${layer}`] : [`${src}/${layer}/**/*.ts`],
      ignores: ['**/*.test.ts', '**/*.test-fixture.ts'],
      rules: {
        'no-restricted-imports': restrict([
          ...base,
          {
            regex: `^\\.{1,2}/(\\.\\./)*(${names.join('|')})(/|$)`,
            message: `${label(layer)} sits below ${above.map(label).join(', ')} and the app: it imports none of them`,
          },
        ]),
      },
    };
  });
}

/**
 * The layers of the web app (issue 23 §4): `app/` (shell, router, route table) → `features/` → `shared/`. A feature
 * imports another feature only through its index.ts and never imports the app (what a feature needs of the shell,
 * the shell hands it: the route loaders' arguments, shared/preferences); shared imports neither. The app itself may
 * reach into a feature (the route table names each page's and loader's module, one chunk each). The features' rules
 * are a server app's ({@link featureRules}). `ignoreFeatures` are left out while they still reach into other
 * features (another engineer's to change).
 */
function webLayerRules(base, { ignoreFeatures = [] } = {}) {
  const src = 'apps/web/src';
  const tests = [
    '**/*.test.ts',
    '**/*.test.tsx',
    '**/*.test-fixture.ts',
    ...ignoreFeatures.map((f) => `${src}/features/${f}/**`),
  ];
  const blocks = [
    {
      files: [`${src}/shared/**/*.{ts,tsx}`],
      ignores: tests,
      rules: {
        'no-restricted-imports': restrict([
          ...base,
          {
            regex: '^(\\.\\./)+(features|app)(/|$)',
            message: 'shared sits below the features and the app: it imports neither',
          },
        ]),
      },
    },
  ];
  return [...blocks, ...featureRules(src, '*.{ts,tsx}', base, tests)];
}

const WEB_BASE = [
  {
    group: ['@hpc/server-kit', '@hpc/portal', '@hpc/efile', 'fastify', 'kysely'],
    message: 'web never imports server code',
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/*.mjs', '**/*.cjs', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      // Four programs, not one per workspace (scripts/typecheck.mjs says why): typed lint builds each program once.
      parserOptions: {
        project: typePrograms.map((p) => `./${p}`),
        tsconfigRootDir: import.meta.dirname,
      },
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
    rules: { 'no-restricted-imports': restrict(WEB_BASE) },
  },
  ...webLayerRules(WEB_BASE),
  {
    files: ['apps/portal/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['@hpc/efile', '@hpc/web'], message: 'apps never import each other' },
      ]),
    },
  },
  ...layerRules('portal', [{ group: ['@hpc/efile', '@hpc/web'], message: 'apps never import each other' }]),
  {
    files: ['apps/efile/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['@hpc/portal', '@hpc/web'], message: 'apps never import each other' },
      ]),
    },
  },
  ...layerRules('efile', [{ group: ['@hpc/portal', '@hpc/web'], message: 'apps never import each other' }], {
    below: ['fs', 'userfs', 'deps.ts', 'http'],
  }),
  {
    files: ['apps/jobs/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['@hpc/portal', '@hpc/efile', '@hpc/web'], message: 'apps never import each other' },
      ]),
    },
  },
  ...layerRules('jobs', [
    { group: ['@hpc/portal', '@hpc/efile', '@hpc/web'], message: 'apps never import each other' },
  ]),
  {
    files: ['apps/eshell/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['@hpc/portal', '@hpc/efile', '@hpc/jobs', '@hpc/web'],
          message: 'apps never import each other',
        },
      ]),
    },
  },
  ...layerRules('eshell', [
    {
      group: ['@hpc/portal', '@hpc/efile', '@hpc/jobs', '@hpc/web'],
      message: 'apps never import each other',
    },
  ]),
  {
    files: ['packages/cluster-kit/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['@hpc/*', '!@hpc/contracts', '!@hpc/server-kit'],
          message: 'the cluster kit imports no app',
        },
      ]),
    },
  },
  {
    // A server's message for the occasion is a pair from its catalogue (`src/messages.ts`), answered in the
    // request's language (DECISIONS.md, "Server messages"): never an English literal at the throw.
    // The fast-transfer client's refusals (`ClientError`, `RemoteError`) and the portal's answers to it
    // (`WebError`) reach the page the same way.
    files: [
      'apps/{portal,efile,jobs,eshell,fastrans}/src/**/*.ts',
      'packages/{server-kit,cluster-kit}/src/**/*.ts',
    ],
    ignores: ['**/*.test.ts', '**/*.test-fixture.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal', 'TemplateLiteral', 'BinaryExpression', 'ConditionalExpression'].map((kind) => ({
          selector: `NewExpression[callee.name=/^(AppError|Refusal|ClientError|RemoteError|WebError)$/] > ${kind}.arguments:nth-child(2)`,
          message: "a refusal's message is a ServerText of the package's catalogue (src/messages.ts)",
        })),
      ],
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
