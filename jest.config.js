/** @type {import('jest').Config['projects'][number]} */
const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [
    'node_modules/(?!(@nestjs|cookie|file-type|strtok3|token-types|@tokenizer|uint8array-extras|@borewit|jose|openid-client|oauth4webapi)/)',
  ],
};

/**
 * Two projects: `unit` (specs next to their source, no database, no global setup) and `e2e`
 * (over HTTP against a fresh database). `npm test` runs both, `npm run test:unit` only the first.
 * @type {import('jest').Config}
 */
module.exports = {
  testTimeout: 60000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/src', '<rootDir>/cli'],
      testMatch: ['**/*.spec.ts'],
      testTimeout: 60000,
    },
    {
      ...shared,
      displayName: 'e2e',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testTimeout: 60000,
    },
  ],
};
