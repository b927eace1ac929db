/**
 * Measures `careers import` on a generated benchmark tenant (run by hand, not part of the tests):
 *
 *   pnpm --filter @careers/core exec node src/demo/measure-import.ts [VACANCIES=100000]
 *
 * Uses DATABASE_URL when set (the database must be migrated or empty), else a throw-away embedded PostgreSQL.
 * CHUNK=N sets the rows per statement (default 5 000).
 * Prints the time to build and serialise the document, to parse the JSON, the first import and a re-import.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { openOrm } from '../db/orm.ts';
import { importTenantDocument } from '../modules/tenants/import/tenant-import.service.ts';
import { buildLargeDocument } from './large-tenant.ts';

const count = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(count) || count < 1) {
  console.error('usage: measure-import.ts [VACANCIES]');
  process.exit(2);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

let stop = async () => {};
let url = process.env.DATABASE_URL;
if (!url) {
  const server = await startEmbeddedPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'careers-measure-')),
    port: 0,
    database: 'measure',
    ephemeral: true,
  });
  url = server.url;
  stop = server.stop;
}

const orm = await openOrm(url);
try {
  await orm.migrator.up();
  let t = performance.now();
  const json = JSON.stringify(buildLargeDocument({ vacancies: count, seed: 42 }));
  console.log(`built a document with ${count} vacancies (${(json.length / 1024 / 1024).toFixed(1)} MiB JSON) in ${seconds(performance.now() - t)}`);
  t = performance.now();
  const document: unknown = JSON.parse(json);
  const parseMs = performance.now() - t;
  t = performance.now();
  const phases: string[] = [];
  const onPhase = (phase: string, ms: number) => {
    if (ms >= 100) phases.push(`${phase} ${seconds(ms)}`);
  };
  const chunkSize = process.env.CHUNK ? Number(process.env.CHUNK) : undefined;
  const first = await importTenantDocument(orm, document, { onPhase, chunkSize });
  const firstMs = performance.now() - t;
  console.log(`JSON.parse: ${seconds(parseMs)}; first import: ${seconds(firstMs)} (${first.totals.vacancies} vacancies, ${first.totals.locations} locations, ${first.totals.tags} tags)`);
  console.log(`  phases ≥ 0.1 s: ${phases.splice(0).join('; ')}`);
  console.log(`file to database (JSON.parse + import): ${seconds(parseMs + firstMs)}`);
  t = performance.now();
  await importTenantDocument(orm, document, { onPhase });
  console.log(`re-import of the same document: ${seconds(performance.now() - t)}`);
  console.log(`  phases ≥ 0.1 s: ${phases.splice(0).join('; ')}`);
} finally {
  await orm.close();
  await stop();
}
