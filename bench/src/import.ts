import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { migrateUp, openOrm, startEmbeddedPostgres } from '@careers/core';
import { buildLargeDocument, importTenantDocument } from '@careers/core/bench';
import type { TReportScenario } from './scenario.ts';

/** Issue #12's import budget: `careers import` takes at most this multiple of a plain COPY of the same rows. */
const MAX_IMPORT_RATIO = 1.2;

/** One value in COPY's text format (arrays as PostgreSQL literals, objects as JSON). */
function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text =
    typeof value === 'boolean'
      ? (value ? 't' : 'f')
      : Array.isArray(value)
        ? `{${value.map((item) => (typeof item === 'number' ? String(item) : `"${String(item).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  return text.replace(/[\\\n\r\t]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]!);
}

async function copyRows(client: pg.Client, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  const lines = function* () {
    // ~1 MB pieces: few stream writes, little memory.
    let chunk = '';
    for (const row of rows) {
      chunk += `${row.map(copyValue).join('\t')}\n`;
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  };
  await pipeline(Readable.from(lines()), client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`)));
}

type TDocument = ReturnType<typeof buildLargeDocument>;
type TTenant = TDocument['tenants'][number];
type TNamed = { id: number; name: unknown; parent_id?: number | null };

/**
 * The yardstick of the import: the tenant row, then every content row of the document (locations, taxonomies,
 * tags, vacancies and their four link tables) with COPY, in one transaction. Keys, users, team members and
 * articles (~150 rows) are left out.
 */
async function copyDocument(databaseUrl: string, document: TDocument): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let rows = 0;
  try {
    await client.query('begin');
    const copy = async (table: string, columns: string[], list: unknown[][]) => {
      await copyRows(client, table, columns, list);
      rows += list.length;
    };
    for (const tenant of document.tenants as TTenant[]) {
      const { rows: inserted } = await client.query(
        'insert into tenants (slug, name, default_language, api_enabled, career_site_domain, url_pattern, domains) values ($1, $2, $3, $4, $5, $6, $7) returning id',
        [tenant.slug, tenant.name, tenant.default_language, tenant.api_enabled, tenant.career_site?.domain, tenant.career_site?.url_pattern, tenant.domains],
      );
      const t = inserted[0].id as number;
      const l = tenant.locations ?? [];
      await copy('locations', ['id', 'tenant_id', 'slug', 'name', 'address_line_1', 'address_line_2', 'address_line_3', 'locality', 'administrative_area', 'postal_code', 'country_code', 'latitude', 'longitude', 'created_at'],
        l.map((x) => [x.id, t, x.slug, x.name, x.address_line_1, x.address_line_2, x.address_line_3, x.locality, x.administrative_area, x.postal_code, x.country_code, x.latitude, x.longitude, x.created_at]));
      for (const table of ['departments', 'job_types', 'experience_levels', 'education_levels'] as const) {
        await copy(table, ['id', 'tenant_id', 'name'], ((tenant[table] ?? []) as TNamed[]).map((x) => [x.id, t, x.name]));
      }
      // Parents before children (the generated document lists them so).
      await copy('tags', ['id', 'tenant_id', 'name', 'parent_id'], ((tenant.tags ?? []) as TNamed[]).map((x) => [x.id, t, x.name, x.parent_id ?? null]));
      const v = tenant.vacancies ?? [];
      await copy('vacancies',
        ['id', 'tenant_id', 'slug', 'title', 'summary', 'description', 'requirements', 'offer', 'language', 'status', 'channels', 'accepts_applications', 'published_at', 'ends_at',
          'created_at', 'views_count', 'location_id', 'department_id', 'company_location_id', 'compensation_min', 'compensation_max', 'compensation_currency', 'compensation_period',
          'header_image', 'canonical_url', 'questions'],
        v.map((x) => [x.id, t, x.slug, x.title, x.summary, x.description, x.requirements, x.offer, x.language, x.status, x.channels, x.accepts_applications, x.published_at, x.ends_at,
          x.created_at, x.views_count, x.location_id, x.department_id, x.company_location_id, x.compensation?.min, x.compensation?.max, x.compensation?.currency, x.compensation?.period,
          x.header_image, x.canonical_url, '[]']));
      const links = [['vacancy_job_types', 'job_type_id', 'job_type_ids'], ['vacancy_experience_levels', 'experience_level_id', 'experience_level_ids'],
        ['vacancy_education_levels', 'education_level_id', 'education_level_ids'], ['vacancy_tags', 'tag_id', 'tag_ids']] as const;
      for (const [table, column, field] of links) {
        await copy(table, ['vacancy_id', column], v.flatMap((x) => ((x[field] ?? []) as number[]).map((id) => [x.id, id])));
      }
    }
    await client.query('commit');
    return rows;
  } finally {
    await client.end();
  }
}

/** Rows per table of the tables the COPY writes, to show both runs wrote the same. */
async function rowCounts(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = ['locations', 'departments', 'job_types', 'experience_levels', 'education_levels', 'tags', 'vacancies', 'vacancy_job_types', 'vacancy_experience_levels', 'vacancy_education_levels', 'vacancy_tags'];
    const { rows } = await client.query(`select ${tables.map((table) => `(select count(*) from ${table})::int as ${table}`).join(', ')}`);
    return JSON.stringify(rows[0]);
  } finally {
    await client.end();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export const importScenario: TReportScenario = {
  description: `careers import of a generated tenant (100 000 vacancies; --quick 10 000) against a plain COPY of the same rows (budget ≤ ${MAX_IMPORT_RATIO}×)`,
  report: async (options) => {
    const vacancies = options.vacancies ?? (options.quick ? 10_000 : 100_000);
    const folder = mkdtempSync(join(tmpdir(), 'careers-bench-import-'));
    const file = join(folder, 'tenant.json');
    writeFileSync(file, JSON.stringify(buildLargeDocument({ vacancies, seed: 42 })));
    const postgres = await startEmbeddedPostgres({ dataDir: join(folder, 'pg'), port: 0, database: 'careers_import', ephemeral: true, postgresFlags: ['-c', 'shared_buffers=256MB'] });
    try {
      // Two fresh, migrated databases on one server: one per contender.
      const urls = { import: postgres.url, copy: postgres.url.replace(/\/careers_import$/, '/careers_copy') };
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query('create database careers_copy');
      await admin.end();
      const orms = { import: await openOrm(urls.import), copy: await openOrm(urls.copy) };
      for (const orm of Object.values(orms)) await migrateUp(orm);
      await orms.copy.close();
      // Both start from the file: reading and parsing it is part of either.
      let started = performance.now();
      const copied = await copyDocument(urls.copy, JSON.parse(readFileSync(file, 'utf8')) as TDocument);
      const copyMs = performance.now() - started;
      started = performance.now();
      await importTenantDocument(orms.import, JSON.parse(readFileSync(file, 'utf8')));
      const importMs = performance.now() - started;
      await orms.import.close();
      const ratio = importMs / copyMs;
      console.log(`  plain COPY of ${copied} rows: ${seconds(copyMs)}`);
      console.log(`  careers import (read, parse, validate, upsert): ${seconds(importMs)}`);
      const [imported, copiedCounts] = [await rowCounts(urls.import), await rowCounts(urls.copy)];
      console.log(`  rows ${imported === copiedCounts ? 'equal' : `DIFFER: import ${imported}, copy ${copiedCounts}`}`);
      console.log(`  ${ratio <= MAX_IMPORT_RATIO && imported === copiedCounts ? 'PASS' : 'FAIL'}  import ${ratio.toFixed(2)}× the COPY (budget ≤ ${MAX_IMPORT_RATIO}×)`);
      if (ratio > MAX_IMPORT_RATIO || imported !== copiedCounts) process.exitCode = 1;
    } finally {
      await postgres.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  },
};
