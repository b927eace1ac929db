import type { TestProject } from 'vitest/node';
import pg from 'pg';
import coreSetup from '@careers/core/testing/global-setup.ts';

/**
 * The API test suite's global setup (a migrated template database, copied per test file), run through PgBouncer.
 * Migrating the template leaves an idle server connection to it in PgBouncer's pool, and PostgreSQL copies a
 * template only when nobody is connected to it: the template's connections are dropped on PgBouncer's console
 * (KILL, then RESUME so the name stays usable).
 */
const template = 'careers_test_template';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const teardown = await coreSetup(project);
  const adminConsole = new URL(process.env.TEST_DATABASE_URL ?? '');
  adminConsole.pathname = '/pgbouncer';
  const admin = new pg.Client({ connectionString: adminConsole.toString() });
  await admin.connect();
  try {
    await admin.query(`KILL ${template}`);
    await admin.query(`RESUME ${template}`);
  } finally {
    await admin.end();
  }
  return teardown;
}
