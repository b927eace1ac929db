import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

type TTestSettings = { testTimeout?: number; hookTimeout?: number; logLevel?: 'silent' | 'warn' };

/**
 * The test settings every package shares: one throw-away PostgreSQL for the run (global setup), test files in
 * test/, forks, timeouts sized for a busy 2-core machine, and quiet logs (LOG_LEVEL=info pnpm test shows them).
 */
export function careersTestConfig({
  testTimeout = 60_000,
  hookTimeout = 120_000,
  logLevel = 'silent',
}: TTestSettings = {}) {
  return defineConfig({
    test: {
      env: { LOG_LEVEL: process.env.LOG_LEVEL ?? logLevel },
      globalSetup: [fileURLToPath(new URL('./global-setup.ts', import.meta.url))],
      include: ['test/**/*.test.ts'],
      testTimeout,
      hookTimeout,
      pool: 'forks',
    },
  });
}
