import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['../../packages/core/test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The started API logs every request; the page and the database are what the test checks.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  },
});
