// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { layerOrder, noModuleCycle } from './eslint/no-module-cycle.mjs';

/** src/'s layers, bottom first (docs/architecture.md): each imports only from itself and the layers below. */
const LAYERS = ['protocol', 'platform', 'identity', 'tokens', 'grants', 'endpoints', 'demo'];

const TYPEORM = {
  regex: '^typeorm(/|$)',
  message: 'Only */persistence/, platform/database/, the demo seeder and migrations/ import typeorm: use a repository.',
};
const NEST = { regex: '^(@nestjs/|fastify(/|$))', message: 'src/protocol is plain protocol code: no Nest or HTTP types (docs/README.md).' };

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'coverage/**',
      '.data/**',
      'bench/results/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      '!bench/*.js',
      '!bench/*.mjs',
      '!scripts/check-doc-links.mjs',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { 'import-x': importX, tollgate: { rules: { 'layer-order': layerOrder, 'no-module-cycle': noModuleCycle } } },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json', '.node'] })],
    },
    rules: {
      // Module cycles make Nest's injection order fragile and hide layering mistakes.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Between the folders of src/, type imports included: a type both sides need moves to where it belongs.
      'tollgate/no-module-cycle': ['error', { layers: LAYERS }],
      'tollgate/layer-order': ['error', { layers: LAYERS }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The bench harness and the doc-link check: plain JavaScript, type-checked by bench/tsconfig.json (checkJs), which also finds undefined names.
    files: ['bench/*.js', 'bench/*.mjs', 'scripts/check-doc-links.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2024 },
    rules: {
      'no-undef': 'off',
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['bench/*.js'], languageOptions: { sourceType: 'commonjs' } },
  {
    // TypeORM relations name each other's entity classes (resolved lazily through `() => Entity`).
    files: ['src/**/persistence/*.entity.ts'],
    rules: { 'import-x/no-cycle': 'off' },
  },
  {
    files: ['src/**/*.ts', 'cli/**/*.ts'],
    ignores: ['src/**/persistence/**', 'cli/**/persistence/**', 'src/platform/database/**', 'src/demo/demo-data.seeder.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TYPEORM] }] },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TYPEORM, NEST] }] },
  },
  {
    // A grant module written as an outside team would (docs/extending.md): Tollgate only through its public entry.
    files: ['src/grants/cross-domain/**/*.ts'],
    rules: {
      'tollgate/layer-order': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            TYPEORM,
            {
              regex: '^\\.\\./(?!\\.\\./index$)',
              message: 'src/grants/cross-domain/ imports Tollgate only from its public entry, ../../index (the `tollgate` package).',
            },
          ],
        },
      ],
    },
  },
);
