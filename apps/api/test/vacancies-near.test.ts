import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import { DAY, emptyTenant, type TTenantDoc, type TVacancyDoc } from './support/vacancy-fixtures.ts';

const KEY = 'ck_test_near_acme_read_000000001';
const NOW = Date.now();
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const R = 6371.0088;

function km(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b[0] - a[0]) * rad) / 2) ** 2 +
    Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(((b[1] - a[1]) * rad) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

const PLACES: Record<number, [number, number]> = {
  1: [52.3676, 4.9041],
  2: [52.0907, 5.1214],
  3: [51.9244, 4.4777],
  5: [-33.8688, 151.2093],
  6: [64.1466, -21.9426],
};

function vacancy(id: number, fields: Partial<TVacancyDoc>): TVacancyDoc {
  return {
    id,
    slug: `job-${id}`,
    title: `Job ${id}`,
    language: 'en',
    status: 'published',
    channels: ['api'],
    published_at: at(-id * DAY),
    created_at: at(-40 * DAY),
    ...fields,
  };
}

const ACME: TTenantDoc = emptyTenant('acme', {
  api_keys: [{ id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read'] }],
  locations: [
    ...Object.entries(PLACES).map(([id, [latitude, longitude]]) => ({
      id: Number(id),
      slug: `l${id}`,
      name: `Place ${id}`,
      latitude,
      longitude,
    })),
    { id: 4, slug: 'l4', name: 'No coordinates' },
  ] as TTenantDoc['locations'],
  vacancies: [
    vacancy(1, { location_id: 1 }),
    vacancy(2, { location_id: 2 }),
    vacancy(3, { location_id: 3 }),
    vacancy(4, { location_id: 4 }),
    vacancy(5, { location_id: null }),
    vacancy(6, { location_id: 1 }),
    vacancy(7, { location_id: 5 }),
    vacancy(8, { location_id: 6 }),
  ],
});

let api: TTestApi;
beforeAll(async () => {
  api = await startTestApi(await createTestDatabase());
  await importTenantDocument({ em: api.services.orm.em }, { tenants: [ACME] });
});
afterAll(async () => api?.close());

async function list(query: string) {
  const response = await api.get(`/vacancies?${query}`, KEY);
  expect(response.status, response.text).toBe(200);
  return response.body as { data: Array<{ id: number; distance_km?: number }>; meta: { total: number } };
}

describe('near and radius_km', () => {
  it('keeps vacancies within the radius (default 25 km), with distance_km to one decimal', async () => {
    const body = await list('near=52.3676,4.9041');
    expect(body.data.map((item) => item.id).sort()).toEqual([1, 6]);
    expect(body.data.every((item) => item.distance_km === 0)).toBe(true);
    const wider = await list('near=52.3676,4.9041&radius_km=40&sort=distance');
    expect(wider.data.map((item) => item.id)).toEqual([1, 6, 2]);
    expect(wider.data[2]!.distance_km).toBe(Math.round(km(PLACES[1]!, PLACES[2]!) * 10) / 10);
    expect((await list('radius_km=40')).data[0]!.distance_km).toBeUndefined();
  });

  it('sort=distance is nearest first (ties by id); the facets count the same set', async () => {
    const body = await list('near=52.0,4.6&radius_km=100&sort=distance');
    const distances = body.data.map((item) => item.distance_km!);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    const facets = await api.get('/vacancies/facets?near=52.0,4.6&radius_km=100', KEY);
    expect(facets.body.meta.total).toBe(body.meta.total);
  });

  it('refuses malformed near, radius out of range, and sort=distance without near (422, never 5xx)', async () => {
    for (const near of ['abc', '91,0', '0,181', '52.3', '52.3,4.9,1', ' , ', '1e3,2', 'NaN,NaN', '52.3;4.9']) {
      const response = await api.get(`/vacancies?near=${encodeURIComponent(near)}`, KEY);
      expect(response.status, near).toBe(422);
      expect(Object.keys(response.body.errors), near).toEqual(['near']);
    }
    for (const radius of ['0', '501', 'abc', '2.5']) {
      const response = await api.get(`/vacancies?near=52,4&radius_km=${radius}`, KEY);
      expect(response.status, radius).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual(['radius_km']);
    }
    const sort = await api.get('/vacancies?sort=distance', KEY);
    expect(sort.status).toBe(422);
    expect(Object.keys(sort.body.errors)).toEqual(['sort']);
  });

  it('property: exactly the located vacancies within the haversine radius, also across the antimeridian and near the poles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: -89.9, max: 89.9, noNaN: true }),
        fc.double({ min: -179.9, max: 179.9, noNaN: true }),
        fc.integer({ min: 1, max: 500 }),
        async (lat, lng, radius) => {
          const near: [number, number] = [Number(lat.toFixed(4)), Number(lng.toFixed(4))];
          const body = await list(`near=${near[0]},${near[1]}&radius_km=${radius}&per_page=100`);
          const expected = ACME.vacancies
            .filter((v) => v.location_id != null && PLACES[v.location_id] && km(near, PLACES[v.location_id]!) <= radius)
            .map((v) => v.id)
            .sort();
          expect(body.data.map((item) => item.id).sort()).toEqual(expected);
        },
      ),
      {
        numRuns: 40,
        examples: [
          [64.1, -21.9, 30],
          [-33.8, 151.2, 10],
          [52.3, 4.9, 500],
        ],
      },
    );
  });
});
