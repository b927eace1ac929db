import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['../../packages/core/src/testing/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
