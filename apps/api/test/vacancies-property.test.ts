import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import {
  DAY,
  emptyTenant,
  facetCountsModel,
  filterQuery,
  listModel,
  type TModelFilters,
  type TModelSort,
  type TTenantDoc,
  type TVacancyDoc,
} from './support/vacancy-fixtures.ts';

/**
 * Random tenants × random filter combinations against a plain in-memory model: the list, every facet
 * count, the facet invariant, and paging (every matching vacancy exactly once, for any per_page).
 */

const HOUR = 60 * 60 * 1000;
const WORDS = ['alpha', 'Beta', 'GAMMA', 'delta', 'zürich', 'ZÜRICH', '100%', 'a_b'];
const LANGUAGES = ['en', 'nl', 'de'];

let api: TTestApi;
let run = 0;

beforeAll(async () => {
  api = await startTestApi(await createTestDatabase());
});
afterAll(async () => api?.close());

type TShape = {
  locations: number;
  departments: number;
  jobTypes: number;
  experienceLevels: number;
  educationLevels: number;
  companyLocations: number;
  /** For tag i, the index of its parent among the tags before it (or null). */
  tagParents: Array<number | null>;
  vacancies: Array<{
    status: TVacancyDoc['status'];
    api: boolean;
    published: number | null;
    ends: number | null;
    created: number;
    title: string[];
    summary: string[] | null;
    language: number;
    location: number | null;
    department: number | null;
    companyLocation: number | null;
    workplace: 'on_site' | 'hybrid' | 'remote';
    jobTypes: number[];
    experienceLevels: number[];
    educationLevels: number[];
    tags: number[];
  }>;
};

/** `arbitrary` with probability 1 / (1 + absentWeight), else null. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, absentWeight: number) =>
  fc.oneof({ arbitrary: fc.constant(null), weight: absentWeight }, { arbitrary, weight: 1 });

const smallSet = (max: number) => fc.uniqueArray(fc.nat({ max: 7 }), { maxLength: max });

const shapeArbitrary: fc.Arbitrary<TShape> = fc
  .record({
    locations: fc.integer({ min: 1, max: 4 }),
    departments: fc.integer({ min: 1, max: 3 }),
    jobTypes: fc.integer({ min: 1, max: 3 }),
    experienceLevels: fc.integer({ min: 1, max: 3 }),
    educationLevels: fc.integer({ min: 1, max: 3 }),
    companyLocations: fc.integer({ min: 1, max: 2 }),
    tagCount: fc.integer({ min: 1, max: 6 }),
  })
  .chain((sizes) =>
    fc.record({
      locations: fc.constant(sizes.locations),
      departments: fc.constant(sizes.departments),
      jobTypes: fc.constant(sizes.jobTypes),
      experienceLevels: fc.constant(sizes.experienceLevels),
      educationLevels: fc.constant(sizes.educationLevels),
      companyLocations: fc.constant(sizes.companyLocations),
      tagParents: fc.tuple(
        ...Array.from({ length: sizes.tagCount }, (_, i) =>
          i === 0 ? fc.constant(null) : fc.option(fc.nat({ max: i - 1 }), { freq: 2 }),
        ),
      ),
      vacancies: fc.array(
        fc.record({
          status: fc.constantFrom<TVacancyDoc['status']>(
            ...Array<TVacancyDoc['status']>(8).fill('published'),
            'draft',
            'unpublished',
          ),
          api: fc.constantFrom(...Array<boolean>(7).fill(true), false),
          // Hours ago (ties on purpose); negative = in the future; null = never published.
          published: fc.option(fc.integer({ min: -1, max: 5 }), { freq: 8 }),
          ends: sometimes(fc.constantFrom(-1, 24), 3),
          created: fc.integer({ min: 1, max: 4 }),
          title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }),
          summary: fc.option(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })),
          language: fc.nat({ max: 2 }),
          location: fc.option(fc.nat({ max: 7 }), { freq: 4 }),
          department: fc.option(fc.nat({ max: 7 }), { freq: 4 }),
          companyLocation: fc.option(fc.nat({ max: 7 })),
          workplace: fc.constantFrom<'on_site' | 'hybrid' | 'remote'>('on_site', 'on_site', 'hybrid', 'remote'),
          jobTypes: smallSet(2),
          experienceLevels: smallSet(2),
          educationLevels: smallSet(2),
          tags: smallSet(3),
        }),
        { minLength: 10, maxLength: 40, size: 'max' },
      ),
    }),
  );

/** A tenant document from a shape; ids are offset per run so every run gets its own tenant in one database. */
function tenantFromShape(shape: TShape, runIndex: number, now: number): { tenant: TTenantDoc; key: string } {
  const base = runIndex * 1000;
  const ids = (count: number, offset: number) => Array.from({ length: count }, (_, i) => base + offset + i + 1);
  const locationIds = ids(shape.locations, 0);
  const departmentIds = ids(shape.departments, 100);
  const jobTypeIds = ids(shape.jobTypes, 200);
  const experienceIds = ids(shape.experienceLevels, 300);
  const educationIds = ids(shape.educationLevels, 400);
  const tagIds = ids(shape.tagParents.length, 500);
  const companyLocationIds = ids(shape.companyLocations, 600);
  const pick = (list: number[], index: number | null) => (index === null ? null : (list[index % list.length] ?? null));
  const pickMany = (list: number[], indexes: number[]) => [...new Set(indexes.map((i) => list[i % list.length]!))];
  const key = `ck_test_property_run_${String(runIndex).padStart(6, '0')}`;
  const names = (prefix: string, i: number) => ({ en: `${prefix} ${i % 3}`, nl: `${prefix}-nl ${i}` });
  const tenant = emptyTenant(`prop-${runIndex}`, {
    default_language: runIndex % 2 === 0 ? 'en' : 'nl',
    api_keys: [{ id: base + 1, name: 'Site', key, scopes: ['vacancies:read'] }],
    locations: locationIds.map((id, i) => ({
      id,
      slug: `loc-${id}`,
      name: `Location ${i % 2}`,
      locality: `City ${i}`,
      country_code: ['NL', 'DE', 'BE'][i % 3]!,
    })),
    companies: [
      {
        id: base + 1,
        name: 'Client',
        locations: companyLocationIds.map((id) => ({ id, name: `Site ${id}`, city: null, country_code: null })),
      },
    ],
    departments: departmentIds.map((id, i) => ({ id, name: names('Department', i) })),
    job_types: jobTypeIds.map((id, i) => ({ id, name: names('Job type', i) })),
    experience_levels: experienceIds.map((id, i) => ({ id, name: names('Level', i) })),
    education_levels: educationIds.map((id, i) => ({ id, name: names('Education', i) })),
    tags: tagIds.map((id, i) => ({ id, name: names('Tag', i), parent_id: pick(tagIds, shape.tagParents[i] ?? null) })),
    vacancies: shape.vacancies.map((v, i): TVacancyDoc => {
      const id = base + 700 + i;
      return {
        id,
        slug: `vacancy-${id}`,
        title: v.title.join(' '),
        summary: v.summary ? `<p>${v.summary.join(' ')}</p>` : null,
        language: LANGUAGES[v.language]!,
        status: v.status,
        channels: v.api ? ['website', 'api'] : ['website'],
        published_at: v.published === null ? null : new Date(now - v.published * HOUR).toISOString(),
        ends_at: v.ends === null ? null : new Date(now + v.ends * HOUR).toISOString(),
        created_at: new Date(now - v.created * DAY).toISOString(),
        location_id: pick(locationIds, v.location),
        department_id: pick(departmentIds, v.department),
        company_location_id: pick(companyLocationIds, v.companyLocation),
        workplace_type: v.workplace,
        job_type_ids: pickMany(jobTypeIds, v.jobTypes),
        experience_level_ids: pickMany(experienceIds, v.experienceLevels),
        education_level_ids: pickMany(educationIds, v.educationLevels),
        tag_ids: pickMany(tagIds, v.tags),
      };
    }),
  });
  return { tenant, key };
}

type TRequest = { filters: TModelFilters; sort: TModelSort; perPage: number };

/** Random filters over the tenant's own ids (valid ones, so the answer is a list). */
function requestArbitrary(tenant: TTenantDoc): fc.Arbitrary<TRequest> {
  // Each filter is set in about one request of six, so that most combinations still match something.
  const someOf = (ids: number[]) =>
    sometimes(fc.subarray(ids, { minLength: 1, maxLength: Math.min(2, ids.length) }), 5);
  return fc.record({
    filters: fc
      .record({
        language: sometimes(fc.constantFrom('en', 'nl', 'de', 'fr', 'NL'), 5),
        location_id: someOf(tenant.locations.map((l) => l.id)),
        department_id: someOf(tenant.departments.map((d) => d.id)),
        company_location_id: someOf(tenant.companies.flatMap((c) => c.locations.map((l) => l.id))),
        search: sometimes(
          fc.constantFrom('alpha', 'ALP', 'ta', 'zür', 'Zürich', '%', '_', 'a_b', ' gamma ', 'nothing'),
          5,
        ),
        job_types: someOf(tenant.job_types.map((t) => t.id)),
        experience_levels: someOf(tenant.experience_levels.map((t) => t.id)),
        education_levels: someOf(tenant.education_levels.map((t) => t.id)),
        tags: someOf(tenant.tags.map((t) => t.id)),
        workplace_types: sometimes(fc.subarray(['on_site', 'hybrid', 'remote'], { minLength: 1, maxLength: 2 }), 5),
      })
      .map((f) => Object.fromEntries(Object.entries(f).filter(([, value]) => value !== null)) as TModelFilters),
    sort: fc.record({
      sort: fc.constantFrom('published_at', 'title', 'created_at'),
      direction: fc.constantFrom('asc', 'desc'),
    }),
    perPage: fc.integer({ min: 1, max: 7 }),
  });
}

const FILTER_OF_GROUP: Record<string, keyof TModelFilters> = {
  locations: 'location_id',
  departments: 'department_id',
  job_types: 'job_types',
  experience_levels: 'experience_levels',
  education_levels: 'education_levels',
  tags: 'tags',
  languages: 'language',
  workplace_types: 'workplace_types',
};

describe('vacancy reads against a model', () => {
  it('list, facets, the facet invariant and paging agree with the model', async () => {
    const property = fc.asyncProperty(
      shapeArbitrary.chain((shape) => {
        const now = Date.now();
        const { tenant, key } = tenantFromShape(shape, ++run, now);
        return fc.record({
          tenant: fc.constant(tenant),
          key: fc.constant(key),
          now: fc.constant(now),
          requests: fc.array(requestArbitrary(tenant), { minLength: 1, maxLength: 3 }),
        });
      }),
      async ({ tenant, key, now, requests }) => {
        await importTenantDocument({ em: api.services.orm.em }, { tenants: [tenant] });
        for (const [index, { filters, sort, perPage }] of requests.entries()) {
          const expected = listModel(tenant, filters, sort, now).map((v) => v.id);
          const order = { sort: sort.sort, sort_direction: sort.direction };

          const list = await api.get(`/vacancies${filterQuery(filters, { ...order, per_page: 100 })}`, key);
          expect(list.status, list.text).toBe(200);
          expect(list.body.data.map((v: { id: number }) => v.id)).toEqual(expected);
          expect(list.body.meta.total).toBe(expected.length);

          const facets = await api.get(`/vacancies/facets${filterQuery(filters)}`, key);
          expect(facets.status, facets.text).toBe(200);
          expect(facets.body.meta.total).toBe(expected.length);
          const model = facetCountsModel(tenant, filters, now);
          for (const [group, entries] of Object.entries(
            facets.body.data as Record<string, Array<{ id?: number; code?: string; count: number }>>,
          )) {
            const actual = Object.fromEntries(entries.map((entry) => [String(entry.id ?? entry.code), entry.count]));
            expect(actual, group).toEqual(model[group]);
            for (let i = 1; i < entries.length; i++)
              expect(entries[i - 1]!.count).toBeGreaterThanOrEqual(entries[i]!.count);
          }

          // The invariant, through the API, for the first request of each tenant (it costs one list call per entry).
          if (index === 0) {
            for (const [group, entries] of Object.entries(
              facets.body.data as Record<string, Array<{ id?: number; code?: string; count: number }>>,
            )) {
              const filter = FILTER_OF_GROUP[group]!;
              if (filters[filter] !== undefined) continue;
              for (const entry of entries) {
                const narrowed: TModelFilters = {
                  ...filters,
                  [filter]: filter === 'language' ? entry.code : [entry.id ?? entry.code],
                };
                const total = await api.get(`/vacancies${filterQuery(narrowed, { per_page: 1 })}`, key);
                expect(total.body.meta.total, `${group} ${entry.id ?? entry.code}`).toBe(entry.count);
              }
            }
          }

          const seen: number[] = [];
          const lastPage = Math.max(1, Math.ceil(expected.length / perPage));
          for (let page = 1; page <= lastPage + 1; page++) {
            const response = await api.get(
              `/vacancies${filterQuery(filters, { ...order, per_page: perPage, page })}`,
              key,
            );
            expect(response.body.meta.last_page).toBe(lastPage);
            seen.push(...response.body.data.map((v: { id: number }) => v.id));
            expect(response.body.links.next === null).toBe(page >= lastPage);
          }
          expect(seen).toEqual(expected);
        }
      },
    );
    await fc.assert(property, { seed: 20261122, numRuns: 40, endOnFailure: true });
  }, 300_000);
});
