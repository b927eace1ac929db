import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@careers/core/testing/database.ts';
import { importTenantDocument } from '@careers/core/modules/tenants/import/tenant-import.service.ts';
import { VacancyAggregateCache } from '@careers/core/modules/vacancies/vacancy-aggregate-cache.ts';
import { startTestApi, type TTestApi } from './support/api.ts';
import { DAY, emptyTenant, type TTenantDoc, type TVacancyDoc } from './support/vacancy-fixtures.ts';

const KEY = 'ck_test_cache_umbrella_read_001';
const KEY_TIME = 'ck_test_cache_cyberdyne_read_02';

function vacancy(id: number, fields: Partial<TVacancyDoc> = {}): TVacancyDoc {
  return {
    id,
    slug: `job-${id}`,
    title: `Job ${id}`,
    language: 'en',
    status: 'published',
    channels: ['api'],
    published_at: new Date(Date.now() - DAY).toISOString(),
    created_at: new Date(Date.now() - 2 * DAY).toISOString(),
    ...fields,
  };
}

function tenant(vacancies: TVacancyDoc[]): TTenantDoc {
  return emptyTenant('umbrella', {
    api_keys: [{ id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read'] }],
    locations: [{ id: 1, slug: 'raccoon-city', name: 'Raccoon City', locality: 'Raccoon City', country_code: 'US' }],
    vacancies: vacancies.map((v) => ({ location_id: 1, ...v })),
  });
}

let api: TTestApi;

beforeAll(async () => {
  api = await startTestApi(await createTestDatabase());
});
afterAll(async () => api?.close());

describe('cached vacancy aggregates', () => {
  it('see a new import at once', async () => {
    await importTenantDocument(api.services.orm, { tenants: [tenant([vacancy(1), vacancy(2)])] });
    expect((await api.get('/vacancies', KEY)).body.meta.total).toBe(2);
    expect((await api.get('/vacancies/facets', KEY)).body.data.locations[0].count).toBe(2);

    await importTenantDocument(api.services.orm, { tenants: [tenant([vacancy(1), vacancy(2), vacancy(3)])] });
    const list = await api.get('/vacancies', KEY);
    expect(list.body.meta.total).toBe(3);
    expect(list.body.data).toHaveLength(3);
    const facets = await api.get('/vacancies/facets', KEY);
    expect(facets.body.meta.total).toBe(3);
    expect(facets.body.data.locations[0].count).toBe(3);
  });

  it('follow visibility that changes with time within about a second', async () => {
    const soon = new Date(Date.now() + 1_500).toISOString();
    const cyberdyne = emptyTenant('cyberdyne', {
      api_keys: [{ id: 2, name: 'Site', key: KEY_TIME, scopes: ['vacancies:read'] }],
      vacancies: [vacancy(11), vacancy(14, { published_at: soon })],
    });
    await importTenantDocument(api.services.orm, { tenants: [cyberdyne] });
    expect((await api.get('/vacancies', KEY_TIME)).body.meta.total).toBe(1);
    expect((await api.get('/vacancies/facets', KEY_TIME)).body.meta.total).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2_700));
    const list = await api.get('/vacancies', KEY_TIME);
    expect(list.body.data.map((v: { id: number }) => v.id)).toEqual([14, 11]);
    expect(list.body.meta.total).toBe(2);
    expect((await api.get('/vacancies/facets', KEY_TIME)).body.meta.total).toBe(2);
  });
});

describe('VacancyAggregateCache', () => {
  it('computes once for concurrent requests of one key, again after the TTL', async () => {
    const cache = new VacancyAggregateCache({ ttlMs: 50, maxEntries: 10 });
    let computations = 0;
    const compute = async () => {
      computations++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return computations;
    };
    expect(await Promise.all([cache.get('k', compute), cache.get('k', compute), cache.get('k', compute)])).toEqual([1, 1, 1]);
    expect(await cache.get('other', compute)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cache.get('k', compute)).toBe(3);
  });

  it('forgets failures and stays within its size', async () => {
    const cache = new VacancyAggregateCache({ ttlMs: 10_000, maxEntries: 2 });
    await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('k', async () => 'recovered')).toBe('recovered');
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => 'b');
    // Adding 'b' pushed out the oldest entry ('k'); 'b' is still remembered.
    expect(await cache.get('k', async () => 'recomputed')).toBe('recomputed');
    expect(await cache.get('b', async () => 'not used')).toBe('b');
  });
});
