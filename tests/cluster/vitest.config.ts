import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One cluster at a time: each file starts its own servers and the machine has few cores.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: 'forks',
  },
});
