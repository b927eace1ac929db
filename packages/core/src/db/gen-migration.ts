/**
 * Developer tool: `pnpm --filter @careers/core migration:create [initial]`. Starts a scratch embedded
 * PostgreSQL, applies the committed migrations, and writes a new migration with the difference between
 * them and the entities. Review the file before committing it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from './embedded.ts';
import { migrationsPath, openOrm } from './orm.ts';

/**
 * Schema objects written by hand in migrations that entity metadata cannot describe: the content-version
 * triggers and their functions (also on the implicit link tables) and the value → vacancy indexes of the link
 * tables. The schema diff sees them as unknown and would drop them; such statements are removed here.
 */
const HAND_WRITTEN = [
  /_content_(insert|update|delete)/,
  /careers_bump_content_version/,
  // The event outbox's commit-order sequencing and the vacancy and article event triggers.
  /events_position_seq|events_unsequenced_idx|careers_sequence_events|events_sequence_at_commit|"writer_xact"/,
  /careers_\w+_events|_events_(insert|update|delete)|careers_announce_time_passing/,
  /"vacancy_\w+_(job_type|experience_level|education_level|tag)_id_vacancy_id_index"/,
  // Search that finds: the search functions, the GIN indexes (operator classes), the document's vacancy key, and the
  // tenants trigger that bumps the content version.
  /careers_search_|careers_refresh_vacancy_search|careers_bump_tenant_answers|tenants_answers_update|tenants_tenants_answers_update_fn/,
  /search_words_trgm_idx|vacancy_search_documents_document_idx|vacancy_search_documents_vacancy_id_fkey/,
];

/** Drops the statements about hand-written objects from a generated migration; deletes it if none is left. */
function keepEntityChanges(file: string): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const isStatement = (line: string) => line.trimStart().startsWith('this.addSql(');
  const kept = lines.filter((line) => !(isStatement(line) && HAND_WRITTEN.some((pattern) => pattern.test(line))));
  const statements = kept.filter(isStatement).length;
  if (statements === 0) rmSync(file);
  else writeFileSync(file, kept.join('\n'));
  return statements;
}

const server = await startEmbeddedPostgres({
  dataDir: mkdtempSync(join(tmpdir(), 'careers-migration-')),
  port: 0,
  database: 'scratch',
  ephemeral: true,
});
try {
  const orm = await openOrm(server.url);
  await orm.em.fork().execute('create extension if not exists pg_trgm');
  await orm.migrator.up();
  const result = await orm.migrator.create(undefined, false, process.argv[2] === 'initial');
  const kept = result.fileName ? keepEntityChanges(join(migrationsPath, result.fileName)) : 0;
  console.log(kept > 0 ? `wrote ${result.fileName}` : 'no changes');
  await orm.close();
} finally {
  await server.stop();
}
