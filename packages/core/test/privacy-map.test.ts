import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, publicTables } from './support/index.ts';
import { openOrm, type TOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import { OTHER_TABLES, PERSONAL_DATA_TABLES } from '../src/modules/privacy/personal-data-map.ts';
import { sweepRetention } from '../src/modules/privacy/retention.service.ts';

let url: string;
let orm: TOrm;

beforeAll(async () => {
  url = await createTestDatabase();
  orm = await openOrm(url);
});
afterAll(async () => orm?.close());

describe('the personal-data map', () => {
  it('declares every table of the database once, as holding candidate data or not (a new table cannot be forgotten)', async () => {
    const declared = [...PERSONAL_DATA_TABLES.map((entry) => entry.table), ...OTHER_TABLES.map((entry) => entry.table)];
    expect(new Set(declared).size).toBe(declared.length);
    expect([...declared].sort()).toEqual(await publicTables(url));
  });

  it('names only columns that exist, and every table with a candidate, application or resume reference holds candidate data', async () => {
    const { rows } = await orm.em
      .fork()
      .getConnection()
      .execute<{ table_name: string; column_name: string }[]>(
        `select table_name, column_name from information_schema.columns where table_schema = 'public'`,
        [],
        'all',
      )
      .then((result) => ({ rows: result }));
    const columns = new Set(rows.map((row) => `${row.table_name}.${row.column_name}`));
    for (const entry of PERSONAL_DATA_TABLES) {
      for (const column of entry.columns)
        expect(columns.has(`${entry.table}.${column}`), `${entry.table}.${column}`).toBe(true);
      if ('column' in entry.reach)
        expect(columns.has(`${entry.table}.${entry.reach.column}`), `${entry.table}.${entry.reach.column}`).toBe(true);
    }
    // A reference to a person's records (or a copy of a request or response) makes a table hold their data.
    const personal = new Set(PERSONAL_DATA_TABLES.map((entry) => entry.table));
    const referencing = rows
      .filter((row) => ['candidate_id', 'application_id', 'response_body', 'payload'].includes(row.column_name))
      .map((row) => row.table_name);
    for (const table of referencing)
      expect(personal.has(table), `${table} refers to a person but is not in the map`).toBe(true);
  });
});

describe('the retention sweep', () => {
  it('erases each candidate once when several workers sweep at once (SKIP LOCKED), in bounded batches', async () => {
    await importTenantDocument({ em: orm.em }, {
      tenants: [
        {
          id: 1,
          slug: 'acme',
          name: 'Acme',
          privacy: {
            retention_days: 10,
            talent_pool_retention_days: null,
            require_processing_consent: false,
            policy_version: null,
          },
          vacancies: [
            {
              id: 1,
              slug: 'v',
              title: 'V',
              language: 'en',
              status: 'published',
              channels: ['api'],
              published_at: '2025-01-01T00:00:00Z',
            },
          ],
        },
      ],
    } as never);
    const db = kyselyOf(orm.em.fork());
    const total = 250;
    const candidates = await db
      .insertInto('candidates')
      .values(
        Array.from({ length: total }, (_, index) => ({
          tenant_id: 1,
          slug: `c${index}`,
          first_name: 'C',
          last_name: `${index}`,
          email: `c${index}@example.org`,
        })) as never,
      )
      .returning('id')
      .execute();
    await db
      .insertInto('applications')
      .values(
        candidates.map((candidate) => ({
          tenant_id: 1,
          vacancy_id: 1,
          candidate_id: candidate.id,
          created_at: new Date('2026-01-01T00:00:00Z'),
        })) as never,
      )
      .execute();
    const asOf = new Date('2026-02-01T00:00:00Z');
    const results = await Promise.all([1, 2, 3].map(() => sweepRetention({ em: orm.em.fork() }, { asOf })));
    expect(results.reduce((sum, result) => sum + result.erased_candidates, 0)).toBe(total);
    expect(results.reduce((sum, result) => sum + result.erased_applications, 0)).toBe(total);
    const left = await db
      .selectFrom('candidates')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const erasedEvents = await db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 'candidate.erased')
      .executeTakeFirstOrThrow();
    expect(Number(erasedEvents.n)).toBe(total);
  });
});
