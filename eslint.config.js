// House rules as lint rules: type-aware checks, and the layers of docs/ARCHITECTURE.md as import
// boundaries. Zero warnings are allowed (`npm run check` runs `eslint --max-warnings 0`).
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const server = 'packages/server/src';

/** Imports that do I/O, hold threads or talk to a store or a network: never in the domain. */
const ioModules = [
  'node:fs',
  'node:fs/*',
  'node:net',
  'node:http',
  'node:https',
  'node:http2',
  'node:child_process',
  'node:worker_threads',
  'node:os',
  'node:dgram',
  'node:dns',
  'node:readline',
  'node:process',
  'node:timers',
  'node:timers/*',
  'fs',
  'fs/*',
  'http',
  'https',
  'child_process',
  'worker_threads',
  'better-sqlite3',
  'pg',
  'kysely',
  'hono',
  'hono/*',
  'pino',
  'prom-client',
  'ai',
  '@ai-sdk/*',
  'hyparquet',
  'hyparquet-writer',
  'cld',
  'eld',
  'eld/*',
  'commander',
  'cli-progress',
  'yaml',
];

/**
 * A folder's restricted layers, as `no-restricted-imports` patterns. Type-only imports pass unless
 * `types` is false (for the whole rule, or for one group): the domain may not even name another
 * layer's types (it owns its vocabulary), nor may adapters name the store's.
 */
function layerRule(groups, { types = true } = {}) {
  return [
    'error',
    {
      patterns: groups.map(({ group, message, types: groupTypes = types }) => ({ group, message, allowTypeImports: groupTypes })),
    },
  ];
}

/** What makes code impure besides imports: the clock, randomness, the environment, timers. Passed in instead. */
const impureGlobals = [
  { name: 'process', message: 'domain/ reads no environment: pass the value in (docs/ARCHITECTURE.md).' },
  { name: 'performance', message: 'domain/ has no clock: pass a clock in.' },
  { name: 'setTimeout', message: 'domain/ has no timers.' },
  { name: 'setInterval', message: 'domain/ has no timers.' },
  { name: 'crypto', message: 'domain/ has no randomness or hashing of its own: pass a random source or a hash in.' },
];
const impureCalls = [
  { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'domain/ has no clock: pass a clock in.' },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'domain/ has no clock: pass a clock in (new Date() reads it).',
  },
  {
    selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
    message: 'domain/ has no randomness of its own: pass a random source in (domain/ranking/seeded-random.ts).',
  },
];

const layerOf = (folder) => [`**/${folder}`, `**/${folder}/**`];
/** The layers that use the domain's vocabulary (and the configuration's): never imported by either. */
const outerLayers = ['db', 'providers', 'services', 'adapters', 'http', 'cli', 'jobs', 'observability', 'composition'].flatMap(layerOf);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'packages/web/.svelte-kit/**',
      'packages/web/build/**',
      'packages/server/dist/**',
      'data/**',
      'test-results/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-non-null-asserted-optional-chain': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // An async method that implements a promise-returning port need not await; what matters, a
      // promise left floating or passed where a callback is expected, is checked above.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    rules: {
      // Prettier writes `{' '}` to keep a significant space when it breaks a line of markup: the
      // formatter's output must pass the linter.
      'svelte/no-useless-mustaches': 'off',
    },
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, svelteConfig: undefined },
    },
  },
  // Tests read JSON bodies and frames as they come (`await response.json()` is `any`) and assert on
  // them with expect: `any` and the unsafe-any family would only add casts there. Production code keeps them.
  {
    files: ['**/*.test.ts', 'packages/server/test/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },

  // The layers. Domain: pure rules, nothing with I/O, no other layer.
  {
    files: [`${server}/domain/**/*.ts`, 'packages/privacy/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', ...impureGlobals],
      'no-restricted-syntax': ['error', ...impureCalls],
      'no-restricted-imports': layerRule(
        [
          {
            group: [...ioModules, 'node:*'],
            message: 'domain/ is pure: no I/O, threads, store, network, hashing or framework here (docs/ARCHITECTURE.md).',
          },
          {
            group: [...outerLayers, ...layerOf('config'), '**/main'],
            message:
              'domain/ imports only the domain and the contract, types included: the other layers import its vocabulary, never the reverse (docs/decisions/0009).',
          },
        ],
        { types: false },
      ),
    },
  },
  // HTTP and the command line reach the store and the models only through services.
  {
    files: [`${server}/cli/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [...layerOf('db'), ...layerOf('providers'), 'better-sqlite3', 'pg', 'kysely'],
          message: 'cli/ reaches the store and the models through services (docs/ARCHITECTURE.md).',
        },
        {
          group: [...layerOf('composition'), '**/main'],
          message: 'cli/ commands load the composition root lazily, by import(), so that a command pays only for what it uses.',
        },
      ]),
    },
  },
  {
    files: [`${server}/http/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [...layerOf('db'), ...layerOf('providers'), 'better-sqlite3', 'pg', 'kysely'],
          message: 'http/ reaches the store and the models through services (docs/ARCHITECTURE.md).',
        },
        {
          group: [
            ...layerOf('adapters'),
            ...layerOf('config'),
            ...layerOf('jobs'),
            ...layerOf('cli'),
            ...layerOf('composition'),
            '**/main',
          ],
          message:
            'http/ knows routes and services only: files, settings and jobs reach it through the services and settings the composition root gives it (docs/ARCHITECTURE.md).',
        },
      ]),
    },
  },
  {
    files: [`${server}/providers/**/*.ts`, `${server}/db/**/*.ts`, `${server}/adapters/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [...layerOf('services'), ...layerOf('http'), ...layerOf('cli'), ...layerOf('jobs'), ...layerOf('composition'), '**/main'],
          message: 'providers/, db/ and adapters/ never import services or the layers above them (docs/ARCHITECTURE.md).',
        },
      ]),
    },
  },
  {
    files: [`${server}/providers/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [...layerOf('services'), ...layerOf('http'), ...layerOf('cli'), ...layerOf('jobs'), ...layerOf('composition'), '**/main'],
          message: 'providers/ never imports services or the layers above them (docs/ARCHITECTURE.md).',
        },
        {
          group: [...layerOf('db'), ...layerOf('adapters'), 'better-sqlite3', 'pg', 'kysely'],
          message: 'providers/ talk to models only: no store and no file format of ours (docs/ARCHITECTURE.md).',
        },
      ]),
    },
  },
  {
    files: [`${server}/db/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [...layerOf('services'), ...layerOf('http'), ...layerOf('cli'), ...layerOf('jobs'), ...layerOf('composition'), '**/main'],
          message: 'db/ never imports services or the layers above them (docs/ARCHITECTURE.md).',
        },
        {
          group: [...layerOf('providers'), ...layerOf('adapters'), ...layerOf('observability')],
          message: 'db/ holds the store alone: no model client, file format or metrics (docs/ARCHITECTURE.md).',
        },
      ]),
    },
  },
  {
    files: [`${server}/adapters/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [...layerOf('services'), ...layerOf('http'), ...layerOf('cli'), ...layerOf('jobs'), ...layerOf('composition'), '**/main'],
          message: 'adapters/ never import services or the layers above them (docs/ARCHITECTURE.md).',
        },
        {
          group: [...layerOf('db')],
          // Types too: the records an adapter writes are the domain's (decisions/0009), not the store's.
          types: false,
          message: "adapters/ read and write files and run tools over the domain's records; the store is db/'s (docs/ARCHITECTURE.md).",
        },
      ]),
    },
  },
  // Services: use cases over ports; no HTTP, no command line.
  {
    files: [`${server}/services/**/*.ts`, `${server}/jobs/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [...layerOf('http'), ...layerOf('cli'), ...layerOf('composition'), 'hono', 'hono/*', 'commander', '**/main'],
          message: 'services/ and jobs/ know nothing of HTTP, the command line or how the arena is composed (docs/ARCHITECTURE.md).',
        },
        {
          group: ['kysely', 'better-sqlite3', 'pg', 'node:fs', 'node:fs/*', 'fs', 'fs/*', 'yaml', 'hyparquet', 'hyparquet-writer'],
          message: 'services/ and jobs/ reach the store through repositories and files through adapters (docs/ARCHITECTURE.md).',
        },
      ]),
    },
  },
  // Configuration reads the environment and the catalogue; of the other layers it knows only the domain's vocabulary.
  {
    files: [`${server}/jobs/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [...layerOf('http'), ...layerOf('cli'), ...layerOf('composition'), 'hono', 'hono/*', 'commander', '**/main'],
          message: 'jobs/ know nothing of HTTP, the command line or how the arena is composed (docs/ARCHITECTURE.md).',
        },
        {
          group: [
            ...layerOf('db'),
            ...layerOf('providers'),
            ...layerOf('adapters'),
            'kysely',
            'better-sqlite3',
            'pg',
            'node:fs',
            'node:fs/*',
          ],
          message: "jobs/ say when work runs; the work is a service's (docs/ARCHITECTURE.md).",
        },
      ]),
    },
  },
  {
    files: [`${server}/observability/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule([
        {
          group: [
            ...layerOf('db'),
            ...layerOf('providers'),
            ...layerOf('adapters'),
            ...layerOf('http'),
            ...layerOf('cli'),
            ...layerOf('jobs'),
            ...layerOf('composition'),
            '**/main',
          ],
          message: 'observability/ implements the metrics port only (docs/ARCHITECTURE.md).',
        },
      ]),
    },
  },
  {
    // Rooms of a readable size. Exempt by name: data tables (the migrations, the OpenAPI document,
    // the message catalogues), whose length is their content, not tangled logic.
    files: ['packages/*/src/**/*.ts', 'packages/web/src/**/*.svelte'],
    ignores: ['**/*.test.ts', `${server}/db/migrations/**`, `${server}/http/openapi.ts`, 'packages/web/src/lib/i18n/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: [`${server}/config/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': layerRule(
        [
          {
            group: [...outerLayers, '**/main'],
            message: 'config/ imports the domain and the contract only, types included (docs/ARCHITECTURE.md).',
          },
        ],
        { types: false },
      ),
    },
  },
  // The web app never imports server code; the contract and the personal-data rules are shared.
  {
    files: ['packages/web/**/*.ts', 'packages/web/**/*.svelte', 'packages/contract/**/*.ts', 'packages/privacy/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '@agora/server', '@agora/server/*', 'node:*'],
              message: 'The web app, the contract and the privacy rules never import server code or Node modules (docs/ARCHITECTURE.md).',
            },
          ],
        },
      ],
    },
  },
);
