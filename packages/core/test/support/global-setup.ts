import type { TestProject } from 'vitest/node';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { openOrm } from '../../src/db/orm.ts';
import { migrateUp } from '../../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Server URL (database part ignored) where each test file creates its own database. */
    pgServerUrl: string;
    /** A migrated database to copy per test file. */
    pgTemplateDatabase: string;
  }
}

const TEMPLATE = 'careers_test_template';

/**
 * One throw-away PostgreSQL per test run (embedded, from the npm registry), unless TEST_DATABASE_URL
 * points at a server to use instead. A migrated template database is created once; every test file
 * gets a fresh copy of it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let serverUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'careers-test-pg-'));
    const server = await startEmbeddedPostgres({
      dataDir,
      port: 0,
      database: 'postgres',
      ephemeral: true,
      postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    });
    serverUrl = server.url;
    stop = server.stop;
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE} with (force)`);
  await admin.query(`create database ${TEMPLATE}`);
  await admin.end();
  const templateUrl = new URL(serverUrl);
  templateUrl.pathname = `/${TEMPLATE}`;
  const orm = await openOrm(templateUrl.toString());
  await migrateUp(orm);
  await orm.close();
  // A pooler in front (PgBouncer) keeps its server connections to the template open, and a database with
  // sessions cannot serve as a template: end them (the pooler reconnects when asked, which it never is).
  const release = new pg.Client({ connectionString: serverUrl });
  await release.connect();
  await release.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [TEMPLATE],
  );
  await release.end();
  project.provide('pgServerUrl', serverUrl);
  project.provide('pgTemplateDatabase', TEMPLATE);
  return stop;
}
