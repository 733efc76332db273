/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const shared = {
  transform: { '^.+\\.[jt]sx?$': 'babel-jest' },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'jsx', 'json'],
  // A few dependencies ship ESM only (Node 20 in jest cannot require them): let Babel compile them.
  transformIgnorePatterns: ['/node_modules/(?!(cookie|content-disposition|react-hotkeys-hook|otplib|@otplib|@scure/base|@noble/hashes)/)'],
};

/** Two projects: the SPA on jsdom talking to the real API, and the API itself on node. */
const config: Config = {
  globalSetup: '<rootDir>/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/src/testing/global-teardown.ts',
  projects: [
    {
      ...shared,
      displayName: 'web',
      testEnvironment: '<rootDir>/src/testing/jsdom-with-fetch.ts',
      testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
      setupFilesAfterEnv: ['<rootDir>/src/testing/setup-web.ts'],
      moduleNameMapper: {
        '\\.(css|less)$': '<rootDir>/__mocks__/style-mock.js',
        '\\.(png|jpg|jpeg|gif|svg|woff2?)$': '<rootDir>/__mocks__/file-mock.js',
      },
    },
    {
      ...shared,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/server/**/*.test.ts'],
    },
  ],
};

export default config;
