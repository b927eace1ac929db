import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['../core/test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The started API logs every request; the answers are what the tests check.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  },
});
