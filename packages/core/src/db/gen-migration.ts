/**
 * Developer tool: `pnpm --filter @careers/core migration:create [initial]`. Starts a scratch embedded
 * PostgreSQL, applies the committed migrations, and writes a new migration with the difference between
 * them and the entities. Review the file before committing it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from './embedded.ts';
import { openOrm } from './orm.ts';

const server = await startEmbeddedPostgres({ dataDir: mkdtempSync(join(tmpdir(), 'careers-migration-')), port: 0, database: 'scratch', ephemeral: true });
try {
  const orm = await openOrm(server.url);
  await orm.em.fork().execute('create extension if not exists pg_trgm');
  await orm.migrator.up();
  const result = await orm.migrator.create(undefined, false, process.argv[2] === 'initial');
  console.log(result.fileName ? `wrote ${result.fileName}` : 'no changes');
  await orm.close();
} finally {
  await server.stop();
}
