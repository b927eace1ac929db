import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { buildLargeDocument } from '../src/demo/large-tenant.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import { serviceContext } from '../src/modules/service-context.ts';
import { findSearchPlan } from '../src/modules/vacancies/vacancy-search.ts';
import { countVacancies, findVacancyPage } from '../src/modules/vacancies/vacancy.repository.ts';
import { relevancePage } from '../src/modules/vacancies/vacancy.service.ts';
import { toVacancyFilters } from '../src/modules/vacancies/vacancy-filters.ts';
import { rankMatches, toCandidates } from '../src/modules/vacancies/vacancy-ranking.ts';

/**
 * A `q` page by relevance ranked in memory from shared word sets (vacancy-ranking.ts) is the page the one SQL statement
 * ranks (`findVacancyPage` with sort=relevance): the same ids in the same order and the same total, for any words
 * (whole, misspelt, prefixes, several), filters, direction and page.
 */

let orm: MikroORM;
let tenantId: number;
let titleWords: string[];
let locationIds: number[];
let departmentIds: number[];

const noCache = { shared: <T>(_key: string, compute: () => Promise<T>) => compute() };

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  await importTenantDocument({ em: orm.em }, buildLargeDocument({ vacancies: 1_500, seed: 30, locations: 24 }));
  const db = orm.em.getKysely();
  tenantId = (await sql<{ id: number }>`select id from tenants where slug = 'bench'`.execute(db)).rows[0]!.id;
  titleWords = (
    await sql<{ word: string }>`select distinct lower(w) as word from vacancies v,
      regexp_split_to_table(v.title, '[^[:alpha:]]+') w where v.tenant_id = ${tenantId} and length(w) >= 3 order by 1`.execute(
      db,
    )
  ).rows.map((row) => row.word);
  const ids = async (table: string) =>
    (
      await sql<{
        id: number;
      }>`select id from ${sql.table(table)} where tenant_id = ${tenantId} order by id limit 6`.execute(db)
    ).rows.map((row) => row.id);
  locationIds = await ids('locations');
  departmentIds = await ids('departments');
}, 120_000);

afterAll(async () => {
  await orm?.close(true);
});

/** A word as a visitor types it: whole, one letter left out, or its first letters. */
const typed = fc.tuple(fc.nat(), fc.constantFrom('whole', 'typo', 'prefix')).map(([index, form]) => {
  const word = titleWords[index % titleWords.length]!;
  if (form === 'typo' && word.length >= 5) return word.slice(0, 2) + word.slice(3);
  if (form === 'prefix') return word.slice(0, Math.max(3, Math.ceil(word.length / 2)));
  return word;
});

describe('relevance ranked in memory', () => {
  it('property: the same page and total as the SQL ranking, for any words, filters, direction and page', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(typed, { minLength: 1, maxLength: 3 }),
        fc.record({
          language: fc.option(fc.constantFrom('en', 'nl'), { nil: undefined }),
          location_id: fc.option(fc.subarray(locationIds, { minLength: 1, maxLength: 3 }), { nil: undefined }),
          department_id: fc.option(fc.subarray(departmentIds, { minLength: 1, maxLength: 2 }), { nil: undefined }),
        }),
        fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
        fc.record({ limit: fc.integer({ min: 1, max: 25 }), offset: fc.integer({ min: 0, max: 120 }) }),
        async (words, filterInput, direction, page) => {
          const { db } = serviceContext(orm.em.fork(), tenantId);
          const q = words.join(' ');
          const plan = await findSearchPlan(db, tenantId, q);
          if (!plan) return;
          const filters = { ...toVacancyFilters({ ...filterInput, q }), searchPlan: plan };
          const expected = await findVacancyPage(db, filters, { sort: 'relevance', direction }, page);
          const expectedTotal = expected[0]?.match_total ?? (await countVacancies(db, filters));
          const actual = await relevancePage({ db, computation: noCache }, { filters, plan, direction, page });
          expect(
            actual.rows.map((row) => row.id),
            q,
          ).toEqual(expected.map((row) => row.id));
          expect(actual.total, q).toBe(expectedTotal);
          expect(actual.rows.map((row) => row.title)).toEqual(expected.map((row) => row.title));
        },
      ),
      { numRuns: 60, seed: 30 },
    );
  }, 120_000);
});

describe('rankMatches', () => {
  it('sums the points of the words, keeps only candidates, and orders by points, publication, id', () => {
    // Publication order (oldest first): 7, 3, 9, 5.
    const candidates = toCandidates(Int32Array.from([7, 3, 9, 5]));
    const first = { ids: Int32Array.from([3, 5, 7, 8, 9]), points: Uint8Array.from([6, 1, 2, 6, 1]) };
    const second = { ids: Int32Array.from([3, 7, 8, 9]), points: Uint8Array.from([1, 5, 6, 2]) };
    // 3: 7 points, 7: 7 points, 9: 3 points (8 is no candidate, 5 misses the second word).
    expect(rankMatches(candidates, [first, second], 'desc', { limit: 10, offset: 0 })).toEqual({
      ids: [3, 7, 9],
      total: 3,
    });
    expect(rankMatches(candidates, [first, second], 'asc', { limit: 2, offset: 1 })).toEqual({ ids: [7, 3], total: 3 });
    expect(rankMatches(candidates, [first, second], 'asc', { limit: 2, offset: 5 })).toEqual({ ids: [], total: 3 });
  });
});
