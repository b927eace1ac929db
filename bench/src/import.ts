import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateUp, openOrm, startEmbeddedPostgres } from '@careers/core';
import { buildLargeDocument, importTenantDocument } from '@careers/core/bench';
import type { TReportScenario } from './scenario.ts';
import { freshDatabase, loadSharedReference, seedScopesOnly } from './shared-reference.ts';

/** Issue #29: `careers import` with our indexes present takes at most this multiple of the shared reference's load with its indexes first. */
const MAX_IMPORT_RATIO = 1.2;
/** Issue #29: importing an unchanged document again takes at most this multiple of the first import. */
const MAX_REIMPORT_RATIO = 0.5;

/** `careers import` of a file, as the CLI does it: read, parse, validate and write, up to the commit and the statistics after it. */
async function importFile(
  databaseUrl: string,
  file: string,
  onPhase?: (phase: string, ms: number) => void,
): Promise<number> {
  const orm = await openOrm(databaseUrl);
  try {
    const started = performance.now();
    await importTenantDocument({ em: orm.em }, JSON.parse(readFileSync(file, 'utf8')), { onPhase });
    return performance.now() - started;
  } finally {
    await orm.close();
  }
}

/**
 * Row counts both databases hold, by what they mean: the reference keeps taxonomies in one table (by kind) and a
 * vacancy's links as arrays; ours in a table each.
 */
async function comparableCounts(databaseUrl: string, side: 'ours' | 'reference'): Promise<Record<string, number>> {
  const queries: Record<string, [string, string]> = {
    tenants: ['select count(*) from tenants', 'select count(*) from tenants'],
    api_keys: ['select count(*) from api_keys', 'select count(*) from api_keys'],
    users: ['select count(*) from users', 'select count(*) from users'],
    locations: ['select count(*) from locations', 'select count(*) from locations'],
    company_locations: ['select count(*) from company_locations', 'select count(*) from company_locations'],
    departments: ['select count(*) from departments', 'select count(*) from taxonomy where kind = 2'],
    job_types: ['select count(*) from job_types', 'select count(*) from taxonomy where kind = 3'],
    experience_levels: ['select count(*) from experience_levels', 'select count(*) from taxonomy where kind = 4'],
    education_levels: ['select count(*) from education_levels', 'select count(*) from taxonomy where kind = 5'],
    tags: ['select count(*) from tags', 'select count(*) from taxonomy where kind = 6'],
    vacancies: ['select count(*) from vacancies', 'select count(*) from vacancies'],
    vacancy_job_types: [
      'select count(*) from vacancy_job_types',
      'select sum(cardinality(job_type_ids)) from vacancies',
    ],
    vacancy_experience_levels: [
      'select count(*) from vacancy_experience_levels',
      'select sum(cardinality(experience_level_ids)) from vacancies',
    ],
    vacancy_education_levels: [
      'select count(*) from vacancy_education_levels',
      'select sum(cardinality(education_level_ids)) from vacancies',
    ],
    vacancy_tags: ['select count(*) from vacancy_tags', 'select sum(cardinality(tag_ids)) from vacancies'],
    articles: ['select count(*) from articles', 'select count(*) from articles'],
    candidates: ['select count(*) from candidates', 'select count(*) from candidates'],
  };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const list = Object.entries(queries).map(
      ([name, [ours, reference]]) => `coalesce((${side === 'ours' ? ours : reference}), 0)::int as ${name}`,
    );
    const { rows } = await client.query(`select ${list.join(', ')}`);
    return rows[0] as Record<string, number>;
  } finally {
    await client.end();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

type TRound = { referenceMs: number; importMs: number; reimportMs: number; phases: Map<string, number> };

export const importScenario: TReportScenario = {
  description:
    `careers import of a generated tenant (100 000 vacancies; --quick 10 000) into a migrated database against the shared reference's load.mjs ` +
    `with BASELINE_INDEXES_FIRST=1 (budget ≤ ${MAX_IMPORT_RATIO}×), and a re-import of the unchanged document (≤ ${MAX_REIMPORT_RATIO}× the import); --rounds N`,
  report: async (options) => {
    const vacancies = options.vacancies ?? (options.quick ? 10_000 : 100_000);
    const rounds = Math.max(1, options.rounds ?? 1);
    const folder = mkdtempSync(join(tmpdir(), 'careers-bench-import-'));
    const file = join(folder, 'tenant.json');
    const referenceFile = join(folder, 'tenant-reference.json');
    const document = buildLargeDocument({ vacancies, seed: 42 });
    writeFileSync(file, JSON.stringify(document));
    // The same document; the reference's loader knows only the seed's key scopes.
    writeFileSync(referenceFile, JSON.stringify(seedScopesOnly(document)));
    const postgres = await startEmbeddedPostgres({
      dataDir: join(folder, 'pg'),
      port: 0,
      database: 'careers_import',
      ephemeral: true,
      postgresFlags: ['-c', 'shared_buffers=256MB'],
    });
    try {
      const results: TRound[] = [];
      let rowsEqual = true;
      for (let round = 1; round <= rounds; round++) {
        const urls = {
          ours: await freshDatabase(postgres.url, 'careers_import_ours'),
          reference: await freshDatabase(postgres.url, 'careers_import_reference'),
        };
        const orm = await openOrm(urls.ours);
        await migrateUp(orm);
        await orm.close();
        // Back to back on the same server: the reference's load (its indexes first, as in a live database), then ours.
        const referenceMs = await loadSharedReference(urls.reference, referenceFile, { indexesFirst: true });
        const phases = new Map<string, number>();
        const importMs = await importFile(urls.ours, file, (phase, ms) =>
          phases.set(phase, (phases.get(phase) ?? 0) + ms),
        );
        const reimportMs = await importFile(urls.ours, file);
        results.push({ referenceMs, importMs, reimportMs, phases });
        console.log(
          `  round ${round}: reference load ${seconds(referenceMs)} · careers import ${seconds(importMs)} (${(importMs / referenceMs).toFixed(2)}×)` +
            ` · re-import ${seconds(reimportMs)} (${(reimportMs / importMs).toFixed(2)}× the import)`,
        );
        const slowest = [...phases].sort((a, b) => b[1] - a[1]).slice(0, 8);
        console.log(`    slowest phases: ${slowest.map(([phase, ms]) => `${phase} ${seconds(ms)}`).join(', ')}`);
        if (round === 1) {
          const [ours, reference] = [
            await comparableCounts(urls.ours, 'ours'),
            await comparableCounts(urls.reference, 'reference'),
          ];
          const differ = Object.keys(ours).filter((table) => ours[table] !== reference[table]);
          rowsEqual = differ.length === 0;
          console.log(
            `  rows ${
              rowsEqual
                ? `equal (${Object.entries(ours)
                    .map(([table, n]) => `${table} ${n}`)
                    .join(', ')})`
                : `DIFFER: ${differ.map((t) => `${t} ours ${ours[t]} reference ${reference[t]}`).join(', ')}`
            }`,
          );
        }
      }
      const importRatio = median(results.map((r) => r.importMs / r.referenceMs));
      const reimportRatio = median(results.map((r) => r.reimportMs / r.importMs));
      const of = rounds > 1 ? ` (median of ${rounds} rounds)` : '';
      console.log(
        `  ${importRatio <= MAX_IMPORT_RATIO ? 'PASS' : 'FAIL'}  import ${importRatio.toFixed(2)}× the shared reference's load${of} (budget ≤ ${MAX_IMPORT_RATIO}×)`,
      );
      console.log(
        `  ${reimportRatio <= MAX_REIMPORT_RATIO ? 'PASS' : 'FAIL'}  re-import ${reimportRatio.toFixed(2)}× the import${of} (budget ≤ ${MAX_REIMPORT_RATIO}×)`,
      );
      console.log(`  ${rowsEqual ? 'PASS' : 'FAIL'}  rows equal where comparable`);
      if (importRatio > MAX_IMPORT_RATIO || reimportRatio > MAX_REIMPORT_RATIO || !rowsEqual) process.exitCode = 1;
    } finally {
      await postgres.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  },
};
