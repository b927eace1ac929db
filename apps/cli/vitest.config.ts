import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Quiet runs: the processes' JSON logs stay out of the results (LOG_LEVEL=info pnpm test shows them).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    globalSetup: ['../../packages/core/test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
