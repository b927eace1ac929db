import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';

const KEY = 'ck_test_locations_acme_full_0001';
const KEY_NO_SCOPE = 'ck_test_locations_acme_team_0002';
const KEY_OTHER = 'ck_test_locations_globex_0003';
const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const ahead = (days: number) => new Date(Date.now() + days * DAY).toISOString();

type TLoc = {
  id: number;
  slug: string;
  name: string;
  address_line_1?: string | null;
  address_line_2?: string | null;
  address_line_3?: string | null;
  locality?: string | null;
  administrative_area?: string | null;
  postal_code?: string | null;
  country_code?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  created_at: string;
};

// Names differ in case only where the sort must ignore case; two share a name to exercise the id tie-break.
const ACME_LOCATIONS: TLoc[] = [
  {
    id: 11,
    slug: 'amsterdam',
    name: 'amsterdam Office',
    address_line_1: 'Keizersgracht 100',
    address_line_2: 'Floor 3',
    locality: 'Amsterdam',
    administrative_area: 'North Holland',
    postal_code: '1015 AA',
    country_code: 'NL',
    latitude: 52.3676,
    longitude: 4.9041,
    created_at: '2024-01-05T10:00:00Z',
  },
  {
    id: 12,
    slug: 'berlin',
    name: 'Berlin Hub',
    address_line_1: 'Unter den Linden 5',
    locality: 'berlin',
    postal_code: '10117',
    country_code: 'DE',
    latitude: 52.52,
    longitude: 13.405,
    created_at: '2024-01-03T10:00:00Z',
  },
  {
    id: 13,
    slug: 'zurich',
    name: 'Zürich Lab',
    address_line_1: 'Bahnhofstrasse 1',
    address_line_3: 'c/o Example AG',
    locality: 'Zürich',
    postal_code: '8001',
    country_code: 'CH',
    created_at: '2024-01-03T10:00:00Z',
  },
  { id: 14, slug: 'remote', name: 'Remote', created_at: '2024-01-01T00:00:00Z' },
  {
    id: 15,
    slug: 'antwerp',
    name: 'Antwerp Port',
    address_line_1: 'Havenstraat 9',
    locality: 'Antwerpen',
    postal_code: '2000',
    country_code: 'be',
    latitude: 51.2194,
    longitude: 4.4025,
    created_at: '2024-02-01T00:00:00Z',
  },
  {
    id: 16,
    slug: 'rotterdam',
    name: 'Berlin Hub',
    address_line_1: 'Coolsingel 40',
    locality: 'Rotterdam',
    postal_code: '3011 AD',
    country_code: 'NL',
    created_at: '2024-01-03T10:00:00Z',
  },
];

function vacancy(id: number, locationId: number | null, overrides: Record<string, unknown> = {}) {
  return {
    id,
    slug: `vacancy-${id}`,
    title: `Vacancy ${id}`,
    language: 'en',
    status: 'published',
    channels: ['api', 'website'],
    published_at: ago(3),
    created_at: ago(4),
    location_id: locationId,
    ...overrides,
  };
}

function tenantDocument() {
  return {
    tenants: [
      {
        slug: 'acme',
        name: 'Acme',
        default_language: 'en',
        api_keys: [
          { id: 1, name: 'Website', key: KEY, scopes: ['locations:read'] },
          { id: 2, name: 'Team only', key: KEY_NO_SCOPE, scopes: ['team:read'] },
        ],
        locations: ACME_LOCATIONS,
        vacancies: [
          vacancy(101, 11),
          vacancy(102, 11),
          vacancy(103, 11, { ends_at: ahead(5) }),
          vacancy(104, 11, { status: 'draft' }),
          vacancy(105, 11, { channels: ['website'] }),
          vacancy(106, 11, { published_at: ahead(1) }),
          vacancy(107, 11, { ends_at: ago(1) }),
          vacancy(108, 11, { status: 'unpublished' }),
          vacancy(109, 11, { published_at: null }),
          vacancy(110, 12),
          vacancy(111, null),
        ],
      },
      {
        slug: 'globex',
        name: 'Globex',
        default_language: 'nl',
        api_keys: [{ id: 3, name: 'Site', key: KEY_OTHER, scopes: ['locations:read'] }],
        locations: [
          // Same slug as one of acme's: each key sees its own tenant's record.
          {
            id: 21,
            slug: 'amsterdam',
            name: 'Globex Amsterdam',
            locality: 'Amsterdam',
            country_code: 'NL',
            created_at: '2024-03-01T00:00:00Z',
          },
          {
            id: 22,
            slug: 'munich',
            name: 'Globex München',
            locality: 'München',
            country_code: 'DE',
            created_at: '2024-03-02T00:00:00Z',
          },
        ],
        vacancies: [vacancy(201, 21)],
      },
    ],
  };
}

let api: TTestApi;

beforeAll(async () => {
  api = await startTestApi(await createTestDatabase());
  await importTenantDocument({ em: api.services.orm.em }, tenantDocument());
});
afterAll(async () => api?.close());

const ids = (body: { data: Array<{ id: number }> }) => body.data.map((item) => item.id);
const list = async (query: string, key = KEY) => api.get(`/locations${query}`, key);

/** The order CONTRACT promises: lower-cased text, nulls last in both directions, ties by id in the same direction. */
function expectedOrder(
  field: 'name' | 'locality' | 'created_at',
  direction: 'asc' | 'desc',
  rows: TLoc[] = ACME_LOCATIONS,
): number[] {
  const key = (row: TLoc): string | number | null =>
    field === 'created_at'
      ? Date.parse(row.created_at)
      : (((field === 'name' ? row.name : row.locality) ?? null)?.toLowerCase() ?? null);
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka === null && kb === null) return sign * (a.id - b.id);
      if (ka === null) return 1;
      if (kb === null) return -1;
      if (ka !== kb) return sign * (ka < kb ? -1 : 1);
      return sign * (a.id - b.id);
    })
    .map((row) => row.id);
}

describe('GET /locations — access', () => {
  it('answers 401 without a key and with an unknown key', async () => {
    for (const key of [undefined, 'ck_test_not_a_key_at_all_000']) {
      const response = await api.get('/locations', key);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('answers 403 INSUFFICIENT_SCOPE for a key without locations:read (list and detail)', async () => {
    for (const path of ['/locations', '/locations/amsterdam']) {
      const response = await api.get(path, KEY_NO_SCOPE);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'This API key does not have the required scope: locations:read.',
        error: 'INSUFFICIENT_SCOPE',
        required_scope: 'locations:read',
      });
    }
  });
});

describe('GET /locations — shape and pagination', () => {
  it('returns the full location shape without optional keys by default', async () => {
    const response = await list('?search=keizersgracht');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: 11,
        slug: 'amsterdam',
        name: 'amsterdam Office',
        address: {
          address_line_1: 'Keizersgracht 100',
          address_line_2: 'Floor 3',
          address_line_3: null,
          locality: 'Amsterdam',
          administrative_area: 'North Holland',
          postal_code: '1015 AA',
          country_code: 'NL',
          country_name: 'Netherlands',
        },
        created_at: '2024-01-05T10:00:00.000Z',
      },
    ]);
    expect(response.body.data[0]).not.toHaveProperty('coordinates');
    expect(response.body.data[0]).not.toHaveProperty('vacancy_count');
  });

  it('wraps lists in the Laravel envelope with absolute links that keep the query', async () => {
    const response = await list('?per_page=4&sort=name&page=1');
    expect(response.status).toBe(200);
    expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 4, total: 6, last_page: 2, from: 1, to: 4 });
    const next = new URL(response.body.links.next);
    expect(next.pathname).toBe('/v1/locations');
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('sort')).toBe('name');
    expect(response.body.links.prev).toBeNull();
    const second = await list('?per_page=4&page=2');
    expect(second.body.meta).toMatchObject({ current_page: 2, total: 6, from: 5, to: 6 });
    expect(second.body.links.next).toBeNull();
    expect(new URL(second.body.links.prev).searchParams.get('page')).toBe('1');
  });

  it('answers a page past the end with an empty page', async () => {
    const response = await list('?page=9');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toMatchObject({ current_page: 9, total: 6, last_page: 1, from: null, to: null });
  });

  it('an empty result has last_page 1 and null from/to', async () => {
    const response = await list('?search=nothing-matches-this');
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toMatchObject({ total: 0, last_page: 1, from: null, to: null });
  });

  it.each([
    ['?per_page=101', 'per_page', 'The per page must not be greater than 100.'],
    ['?per_page=0', 'per_page', 'The per page must be at least 1.'],
    ['?per_page=abc', 'per_page', 'The per page must be an integer.'],
    ['?page=0', 'page', 'The page must be at least 1.'],
    ['?page=1.5', 'page', 'The page must be an integer.'],
    ['?sort=id', 'sort', 'The selected sort is invalid.'],
    ['?sort=Name', 'sort', 'The selected sort is invalid.'],
    ['?sort_direction=up', 'sort_direction', 'The selected sort direction is invalid.'],
    ['?language=eng', 'language', 'The language must be 2 characters.'],
    ['?country_code=NLD', 'country_code', 'The country code must be 2 characters.'],
    ['?include_coordinates=yes', 'include_coordinates', 'The include coordinates field must be true or false.'],
    ['?include_vacancy_count=2', 'include_vacancy_count', 'The include vacancy count field must be true or false.'],
    [`?search=${'x'.repeat(256)}`, 'search', 'The search must not be greater than 255 characters.'],
  ])('answers 422 for %s', async (query, field, message) => {
    const response = await list(query);
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The given data was invalid.');
    expect(Object.keys(response.body.errors)).toEqual([field]);
    expect(response.body.errors[field][0]).toBe(message);
  });

  it('ignores unknown query parameters', async () => {
    const response = await list('?colour=blue');
    expect(response.status).toBe(200);
    expect(response.body.meta.total).toBe(6);
  });
});

describe('GET /locations — sorting', () => {
  it('defaults to name ascending, case-insensitive, ties by id', async () => {
    const response = await list('');
    expect(ids(response.body)).toEqual(expectedOrder('name', 'asc'));
    // amsterdam (lower-case a) first; the two "Berlin Hub" rows ordered by id.
    expect(ids(response.body)).toEqual([11, 15, 12, 16, 14, 13]);
  });

  it.each([
    ['name', 'asc'],
    ['name', 'desc'],
    ['locality', 'asc'],
    ['locality', 'desc'],
    ['created_at', 'asc'],
    ['created_at', 'desc'],
  ] as const)('sorts by %s %s (nulls last, ties by id in the same direction)', async (sort, direction) => {
    const response = await list(`?sort=${sort}&sort_direction=${direction}`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(expectedOrder(sort, direction));
  });

  it('puts a location without locality last in both directions', async () => {
    const asc = await list('?sort=locality&sort_direction=asc');
    const desc = await list('?sort=locality&sort_direction=desc');
    expect(ids(asc.body).at(-1)).toBe(14);
    expect(ids(desc.body).at(-1)).toBe(14);
    expect(ids(desc.body)).toEqual([13, 16, 12, 15, 11, 14]);
  });

  it('breaks created_at ties by id in the sort direction', async () => {
    expect(ids((await list('?sort=created_at&sort_direction=asc')).body)).toEqual([14, 12, 13, 16, 11, 15]);
    expect(ids((await list('?sort=created_at&sort_direction=desc')).body)).toEqual([15, 11, 16, 13, 12, 14]);
  });

  it('visits every location exactly once across pages, for any page size and order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom('name', 'locality', 'created_at'),
        fc.constantFrom('asc', 'desc'),
        async (perPage, sort, direction) => {
          const seen: number[] = [];
          let lastPage = 1;
          for (let page = 1; page <= lastPage; page++) {
            const response = await list(`?per_page=${perPage}&page=${page}&sort=${sort}&sort_direction=${direction}`);
            expect(response.status).toBe(200);
            lastPage = response.body.meta.last_page;
            seen.push(...ids(response.body));
          }
          expect(seen).toEqual(expectedOrder(sort, direction));
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('GET /locations — filters', () => {
  it.each([
    ['name', 'ANTWERP', [15]],
    ['locality', 'rotterdam', [16]],
    ['address line 1', 'unter den', [12]],
    ['address line 2', 'floor 3', [11]],
    ['address line 3', 'C/O EXAMPLE', [13]],
    ['postal code', '3011 ad', [16]],
    ['non-ASCII case folding', 'ZÜRICH', [13]],
    ['a substring shared by several', 'berlin', [12, 16]],
    ['LIKE wildcards taken literally', '%', []],
    ['underscore taken literally', '_', []],
  ])('search matches the %s', async (_field, term, expected) => {
    const response = await list(`?search=${encodeURIComponent(term)}`);
    expect(response.status).toBe(200);
    expect(ids(response.body).sort()).toEqual([...expected].sort());
  });

  it('trims the search and treats an empty search as no filter', async () => {
    expect(ids((await list(`?search=${encodeURIComponent('  coolsingel  ')}`)).body)).toEqual([16]);
    expect((await list('?search=')).body.meta.total).toBe(6);
    expect((await list('?search=%20%20')).body.meta.total).toBe(6);
  });

  it('filters by country code case-insensitively', async () => {
    expect(ids((await list('?country_code=NL')).body)).toEqual([11, 16]);
    expect(ids((await list('?country_code=nl')).body)).toEqual([11, 16]);
    expect(ids((await list('?country_code=BE')).body)).toEqual([15]);
  });

  it('gives an empty list for a country code nobody is in', async () => {
    const response = await list('?country_code=ZZ');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta.total).toBe(0);
  });

  it('combines filters with AND', async () => {
    expect(ids((await list('?country_code=NL&search=coolsingel')).body)).toEqual([16]);
    expect(ids((await list('?country_code=DE&search=coolsingel')).body)).toEqual([]);
  });
});

describe('GET /locations — localization and includes', () => {
  const names = (body: { data: Array<{ id: number; address: { country_name: string | null } }> }) =>
    Object.fromEntries(body.data.map((item) => [item.id, item.address.country_name]));

  it('localizes country names by language, else the tenant default language', async () => {
    expect(names((await list('?language=en')).body)).toMatchObject({
      11: 'Netherlands',
      12: 'Germany',
      13: 'Switzerland',
      14: null,
      15: 'Belgium',
    });
    expect(names((await list('?language=nl')).body)).toMatchObject({
      11: 'Nederland',
      12: 'Duitsland',
      13: 'Zwitserland',
      15: 'België',
    });
    expect(names((await list('?language=DE')).body)).toMatchObject({ 11: 'Niederlande', 12: 'Deutschland' });
    // acme's default language is en, globex's nl.
    expect(names((await list('')).body)).toMatchObject({ 11: 'Netherlands', 12: 'Germany' });
    expect(names((await list('', KEY_OTHER)).body)).toEqual({ 21: 'Nederland', 22: 'Duitsland' });
    expect(names((await list('?language=en', KEY_OTHER)).body)).toEqual({ 21: 'Netherlands', 22: 'Germany' });
  });

  it('normalizes the stored country code to upper case', async () => {
    const response = await list('?search=antwerp');
    expect(response.body.data[0].address.country_code).toBe('BE');
  });

  it('adds coordinates only with include_coordinates, null when unknown', async () => {
    for (const flag of ['true', '1']) {
      const response = await list(`?include_coordinates=${flag}`);
      const byId = Object.fromEntries(
        response.body.data.map((item: { id: number; coordinates: unknown }) => [item.id, item.coordinates]),
      );
      expect(byId).toEqual({
        11: { latitude: 52.3676, longitude: 4.9041 },
        12: { latitude: 52.52, longitude: 13.405 },
        13: null,
        14: null,
        15: { latitude: 51.2194, longitude: 4.4025 },
        16: null,
      });
    }
    for (const flag of ['false', '0']) {
      const response = await list(`?include_coordinates=${flag}`);
      for (const item of response.body.data) expect(item).not.toHaveProperty('coordinates');
    }
  });

  it('counts only visible vacancies with include_vacancy_count', async () => {
    const response = await list('?include_vacancy_count=true');
    const counts = Object.fromEntries(
      response.body.data.map((item: { id: number; vacancy_count: number }) => [item.id, item.vacancy_count]),
    );
    // 11: three visible (one ends in the future); draft, website-only, future, ended, unpublished and unpublished-date ones are not.
    expect(counts).toEqual({ 11: 3, 12: 1, 13: 0, 14: 0, 15: 0, 16: 0 });
    const without = await list('?include_vacancy_count=0');
    for (const item of without.body.data) expect(item).not.toHaveProperty('vacancy_count');
  });

  it("never counts another tenant's vacancies", async () => {
    const response = await list('?include_vacancy_count=1', KEY_OTHER);
    expect(
      response.body.data.map((item: { id: number; vacancy_count: number }) => [item.id, item.vacancy_count]),
    ).toEqual([
      [21, 1],
      [22, 0],
    ]);
  });
});

describe('GET /locations/{slug}', () => {
  it('returns the complete location', async () => {
    const response = await api.get(
      '/locations/berlin?include_coordinates=true&include_vacancy_count=true&language=nl',
      KEY,
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        id: 12,
        slug: 'berlin',
        name: 'Berlin Hub',
        address: {
          address_line_1: 'Unter den Linden 5',
          address_line_2: null,
          address_line_3: null,
          locality: 'berlin',
          administrative_area: null,
          postal_code: '10117',
          country_code: 'DE',
          country_name: 'Duitsland',
        },
        created_at: '2024-01-03T10:00:00.000Z',
        coordinates: { latitude: 52.52, longitude: 13.405 },
        vacancy_count: 1,
      },
    });
  });

  it('omits the optional keys without their flags and uses the tenant default language', async () => {
    const response = await api.get('/locations/zurich', KEY);
    expect(response.status).toBe(200);
    expect(response.body.data.address.country_name).toBe('Switzerland');
    expect(response.body.data).not.toHaveProperty('coordinates');
    expect(response.body.data).not.toHaveProperty('vacancy_count');
    const withFlag = await api.get('/locations/zurich?include_coordinates=1', KEY);
    expect(withFlag.body.data.coordinates).toBeNull();
  });

  it("answers 404 for an unknown slug and for another tenant's slug", async () => {
    for (const path of ['/locations/nowhere', '/locations/munich']) {
      const response = await api.get(path, KEY);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Resource not found.' });
    }
  });

  it("resolves a slug both tenants use to each key's own record", async () => {
    expect((await api.get('/locations/amsterdam', KEY)).body.data.id).toBe(11);
    const other = await api.get('/locations/amsterdam', KEY_OTHER);
    expect(other.body.data).toMatchObject({ id: 21, name: 'Globex Amsterdam', address: { country_name: 'Nederland' } });
  });

  it('validates the query before looking the slug up', async () => {
    const response = await api.get('/locations/nowhere?language=dutch', KEY);
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The given data was invalid.');
    expect(Object.keys(response.body.errors)).toEqual(['language']);
    expect(response.body.errors.language[0]).toBe('The language must be 2 characters.');
  });

  it("does not list another tenant's locations", async () => {
    const response = await list('', KEY_OTHER);
    expect(ids(response.body)).toEqual([21, 22]);
  });
});
