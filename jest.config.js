// Projects: unit (pure and adapter specs beside the code), integration (several real parts:
// NATS, sqlite files, OS processes) and e2e (the HTTP black box against both run modes).
const moduleNameMapper = {
  '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src',
  '^@app/([a-z-]+)/(.*)$': '<rootDir>/libs/$1/src/$2',
};
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
};
// dist/ is out of jest's module map (its package.json files would shadow the sources'); tests still require from it by path.
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleNameMapper,
  transform,
  moduleFileExtensions: ['ts', 'js', 'json'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts', '<rootDir>/test/contracts/**/*.test.ts'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'] },
    // Timing-sensitive suites: `npm test` runs them alone, after the others have passed.
    { ...common, displayName: 'serial', testMatch: ['<rootDir>/test/serial/**/*.test.ts'] },
    // `npm run test:faults` only (minutes of faults under load): not part of `npm test`.
    { ...common, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.e2e.ts'] },
  ],
};
