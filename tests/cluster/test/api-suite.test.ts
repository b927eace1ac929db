import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingBinaries } from '../src/binaries.ts';
import { startCluster, type TCluster } from '../src/cluster.ts';

/**
 * A representative part of the API test suite, run through PgBouncer 1.18 in transaction pooling: each test file's
 * own database is reached through PgBouncer's `* =` fallback entry, and the API processes the files start send no
 * session settings (DB_TRANSACTION_POOLING=1). The files cover the reads the content cache serves, the writes with
 * their transactions, idempotency and rate limits (state shared across processes), jobs sent inside transactions,
 * the change feed and webhooks. API_SUITE_FILES=all runs every file (~8 min here; see docs/operations.md "Scale").
 */
const SUBSET = [
  'vacancies.test.ts',
  'vacancies-facets.test.ts',
  'locations.test.ts',
  'canonical-url.test.ts',
  'applications.test.ts',
  'idempotency.test.ts',
  'rate-limits.test.ts',
  'changes.test.ts',
  'webhooks-scenario.test.ts',
];
const CONFIG = fileURLToPath(new URL('../api-suite.vitest.config.ts', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const missing = missingBinaries();

describe.skipIf(missing)(`the API test suite through PgBouncer${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let cluster: TCluster;
  beforeAll(async () => {
    cluster = await startCluster({ replica: false });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('passes in transaction pooling', async () => {
    const files = process.env.API_SUITE_FILES === 'all' ? [] : SUBSET.map((file) => `test/${file}`);
    const child = spawn(process.execPath, [VITEST, 'run', '--config', CONFIG], {
      env: {
        ...process.env,
        TEST_DATABASE_URL: cluster.bouncer.urlOf('postgres'),
        DB_TRANSACTION_POOLING: '1',
        API_SUITE_FILES: files.join(','),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(0);
  }, 900_000);
});
