/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  moduleFileExtensions: ['js', 'json', 'ts'],
  testRegex: '(src|test)/.*\\.(e2e-)?spec\\.ts$',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  testEnvironment: 'node',
  // Every e2e file starts the whole app on its own fresh database; two at a time suits 2 cores.
  maxWorkers: 2,
  testTimeout: 60000,
  setupFiles: ['reflect-metadata', '<rootDir>/test/utils/boot-order.ts'],
};
