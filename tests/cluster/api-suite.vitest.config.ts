import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import apiConfig from '../../apps/api/vitest.config.ts';

/**
 * The API test suite with TEST_DATABASE_URL pointing at PgBouncer in transaction pooling (test/api-suite.test.ts
 * starts the servers and runs this; the suite's own global setup frees the template database from the pooler). API_SUITE_FILES picks the files (default: all of them).
 */
const files = process.env.API_SUITE_FILES?.split(',').filter(Boolean) ?? [];
export default defineConfig({
  ...apiConfig,
  root: fileURLToPath(new URL('../../apps/api', import.meta.url)),
  test: {
    ...apiConfig.test,
    include: files.length > 0 ? files : apiConfig.test?.include,
  },
});
