import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import { DAY, emptyTenant, type TTenantDoc, type TVacancyDoc } from './support/vacancy-fixtures.ts';

const KEY = 'ck_test_vacancies_acme_read_0001';
const KEY_LEGACY = 'ck_test_vacancies_acme_legacy_0002';
const KEY_NO_SCOPE = 'ck_test_vacancies_acme_locations_0003';
const KEY_GLOBEX = 'ck_test_vacancies_globex_read_0004';

const NOW = Date.now();
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

function vacancy(id: number, fields: Partial<TVacancyDoc>): TVacancyDoc {
  return {
    id,
    slug: `vacancy-${id}`,
    title: `Vacancy ${id}`,
    summary: null,
    language: 'en',
    status: 'published',
    channels: ['api', 'website'],
    published_at: at(-7 * DAY),
    created_at: at(-8 * DAY),
    ...fields,
  };
}

/**
 * Acme's visible vacancies, in published_at desc order: 4, 12, 3, 2, 1, 5 (2 and 3 share published_at;
 * 2 and 12 share created_at; 4 and 12 share a lower-cased title).
 */
const ACME_VACANCIES: TVacancyDoc[] = [
  vacancy(1, {
    slug: 'senior-backend-engineer',
    title: 'Senior Backend Engineer',
    summary: '<p>Build APIs in Go</p>',
    description: '<p>All about the role</p>',
    requirements: '<ul><li>Go</li></ul>',
    offer: null,
    published_at: at(-5 * DAY),
    created_at: at(-30 * DAY),
    views_count: 7,
    location_id: 1,
    department_id: 1,
    company_location_id: 1,
    job_type_ids: [1],
    experience_level_ids: [2],
    education_level_ids: [2],
    tag_ids: [3],
    compensation: { min: 5000, max: 6500, currency: 'EUR', period: 'month' },
    header_image: { default: 'https://cdn.acme.example/1.jpg', small: null, large: 'https://cdn.acme.example/1-l.jpg' },
  }),
  vacancy(2, {
    slug: 'frontend-developer',
    title: 'frontend developer',
    summary: '<p>React and 100% TypeScript</p>',
    published_at: at(-3 * DAY),
    created_at: at(-10 * DAY),
    location_id: 2,
    department_id: 1,
    job_type_ids: [1, 2],
    experience_level_ids: [1],
    tag_ids: [1, 2],
    canonical_url: 'https://careers.acme.example/custom/frontend',
  }),
  vacancy(3, {
    slug: 'accountmanager',
    title: 'Accountmanager',
    summary: '<p>Verkoop_binnendienst in Zürich</p>',
    language: 'nl',
    published_at: at(-3 * DAY),
    created_at: at(-20 * DAY),
    ends_at: at(30 * DAY),
    location_id: 3,
    department_id: 1,
    job_type_ids: [1],
    education_level_ids: [1],
    tag_ids: [4],
  }),
  vacancy(4, {
    slug: 'data-engineer',
    title: 'Data Engineer',
    published_at: at(-1 * DAY),
    created_at: at(-1 * DAY),
    accepts_applications: false,
  }),
  vacancy(5, {
    slug: 'operations-zurich',
    title: 'Operations ZÜRICH',
    language: 'de',
    published_at: at(-10 * DAY),
    created_at: at(-40 * DAY),
    location_id: 3,
    department_id: 2,
    company_location_id: 1,
    job_type_ids: [2],
    tag_ids: [2, 3],
  }),
  vacancy(12, {
    slug: 'data-engineer-2',
    title: 'data engineer',
    published_at: at(-2 * DAY),
    created_at: at(-10 * DAY),
    location_id: 1,
  }),
  // Not visible, each for one reason.
  vacancy(6, { slug: 'draft', status: 'draft', location_id: 1 }),
  vacancy(7, { slug: 'unpublished', status: 'unpublished', location_id: 1 }),
  vacancy(8, { slug: 'future', published_at: at(2 * DAY), location_id: 1 }),
  vacancy(9, { slug: 'expired', ends_at: at(-1000), location_id: 1 }),
  vacancy(10, { slug: 'website-only', channels: ['website'], location_id: 1 }),
  vacancy(11, { slug: 'never-published', published_at: null, location_id: 1 }),
];

const ACME: TTenantDoc = emptyTenant('acme', {
  default_language: 'en',
  career_site: {
    domain: 'careers.acme.example',
    url_pattern: 'https://careers.acme.example/vacancies/{slug}?ref={id}',
  },
  api_keys: [
    { id: 1, name: 'Website', key: KEY, scopes: ['vacancies:read'] },
    { id: 2, name: 'Legacy', key: KEY_LEGACY, scopes: ['*'] },
    { id: 3, name: 'Locations only', key: KEY_NO_SCOPE, scopes: ['locations:read'] },
  ],
  locations: [
    { id: 1, slug: 'amsterdam', name: 'Amsterdam Office', locality: 'Amsterdam', country_code: 'NL' },
    { id: 2, slug: 'berlin', name: 'Berlin Hub', locality: 'Berlin', country_code: 'DE' },
    { id: 3, slug: 'zurich', name: 'Zürich Lab', locality: 'Zürich', country_code: 'CH' },
  ],
  companies: [
    {
      id: 1,
      name: 'Client Co',
      locations: [{ id: 1, name: 'Client Co Utrecht', city: 'Utrecht', country_code: 'NL' }],
    },
  ],
  departments: [
    { id: 1, name: { en: 'Engineering', nl: 'Techniek' } },
    { id: 2, name: { nl: 'Operaties', de: 'Betrieb' } },
  ],
  job_types: [
    { id: 1, name: { en: 'Full-time', nl: 'Voltijd' } },
    { id: 2, name: { en: 'Part-time', nl: 'Deeltijd' } },
  ],
  experience_levels: [
    { id: 1, name: { en: 'Junior' } },
    { id: 2, name: { en: 'Senior', nl: 'Ervaren' } },
  ],
  education_levels: [
    { id: 1, name: { en: 'Bachelor' } },
    { id: 2, name: { en: 'Master' } },
  ],
  tags: [
    { id: 1, name: { en: 'Tech' }, parent_id: null },
    { id: 2, name: { en: 'Backend' }, parent_id: 1 },
    { id: 3, name: { en: 'Go' }, parent_id: 2 },
    { id: 4, name: { en: 'Sales', nl: 'Verkoop' }, parent_id: null },
  ],
  vacancies: ACME_VACANCIES,
});

/** Another tenant: same slug as an Acme vacancy, no URL pattern, Dutch by default. */
const GLOBEX: TTenantDoc = emptyTenant('globex', {
  default_language: 'nl',
  career_site: { domain: 'careers.globex.example', url_pattern: null },
  api_keys: [{ id: 4, name: 'Website', key: KEY_GLOBEX, scopes: ['vacancies:read'] }],
  locations: [{ id: 20, slug: 'rotterdam', name: 'Rotterdam', locality: 'Rotterdam', country_code: 'NL' }],
  departments: [{ id: 20, name: { en: 'Engineering', nl: 'Techniek' } }],
  job_types: [{ id: 20, name: { en: 'Full-time', nl: 'Voltijd' } }],
  experience_levels: [{ id: 20, name: { en: 'Senior' } }],
  education_levels: [{ id: 20, name: { en: 'Master' } }],
  tags: [{ id: 20, name: { en: 'Tech' }, parent_id: null }],
  companies: [
    { id: 20, name: 'Globex Client', locations: [{ id: 20, name: 'Globex Site', city: 'Delft', country_code: 'NL' }] },
  ],
  vacancies: [
    vacancy(100, {
      slug: 'senior-backend-engineer',
      title: 'Globex Backend Engineer',
      location_id: 20,
      department_id: 20,
      job_type_ids: [20],
      tag_ids: [20],
      company_location_id: 20,
    }),
  ],
});

let api: TTestApi;

beforeAll(async () => {
  const url = await createTestDatabase();
  api = await startTestApi(url);
  await importTenantDocument({ em: api.services.orm.em }, { tenants: [ACME, GLOBEX] });
});
afterAll(async () => api?.close());

/** Retries an assertion until it holds (views are flushed in the background, at most a second late). */
async function eventually(assertion: () => Promise<void>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const ids = (body: { data: Array<{ id: number }> }) => body.data.map((item) => item.id);

async function listIds(query: string, key = KEY): Promise<number[]> {
  const response = await api.get(`/vacancies${query}`, key);
  expect(response.status, response.text).toBe(200);
  return ids(response.body);
}

describe('GET /vacancies — access', () => {
  it('needs a valid key with the vacancies:read scope', async () => {
    const missing = await api.get('/vacancies');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ message: 'Unauthenticated.' });
    const wrong = await api.get('/vacancies', 'ck_test_not_a_real_key_000000');
    expect(wrong.status).toBe(401);
    const noScope = await api.get('/vacancies', KEY_NO_SCOPE);
    expect(noScope.status).toBe(403);
    expect(noScope.body).toEqual({
      message: 'This API key does not have the required scope: vacancies:read.',
      error: 'INSUFFICIENT_SCOPE',
      required_scope: 'vacancies:read',
    });
    for (const path of ['/vacancies/facets', '/vacancies/senior-backend-engineer']) {
      expect((await api.get(path, KEY_NO_SCOPE)).status).toBe(403);
    }
  });

  it('answers a legacy full-access key', async () => {
    expect(await listIds('', KEY_LEGACY)).toEqual([4, 12, 3, 2, 1, 5]);
  });

  it('checks the scope before validating the query', async () => {
    const response = await api.get('/vacancies?per_page=500', KEY_NO_SCOPE);
    expect(response.status).toBe(403);
  });
});

describe('GET /vacancies — items and visibility', () => {
  it('lists only visible vacancies of the key’s tenant, newest publication first', async () => {
    const response = await api.get('/vacancies', KEY);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([4, 12, 3, 2, 1, 5]);
    expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 20, total: 6, last_page: 1, from: 1, to: 6 });
    expect(await listIds('', KEY_GLOBEX)).toEqual([100]);
  });

  it('answers the documented item shape, optional keys absent without their flags', async () => {
    const response = await api.get('/vacancies?location_id=1&sort=title&sort_direction=desc', KEY);
    const item = response.body.data.find((v: { id: number }) => v.id === 1);
    expect(item).toEqual({
      id: 1,
      slug: 'senior-backend-engineer',
      title: 'Senior Backend Engineer',
      summary: '<p>Build APIs in Go</p>',
      language: 'en',
      url: 'https://careers.acme.example/vacancies/senior-backend-engineer?ref=1',
      accepts_applications: true,
      views_count: 7,
      published_at: at(-5 * DAY),
      ends_at: null,
      created_at: at(-30 * DAY),
      location: { id: 1, slug: 'amsterdam', name: 'Amsterdam Office', city: 'Amsterdam', country_code: 'NL' },
      department: { id: 1, name: 'Engineering' },
      job_types: [{ id: 1, name: 'Full-time' }],
      experience_levels: [{ id: 2, name: 'Senior' }],
      education_levels: [{ id: 2, name: 'Master' }],
      tags: [{ id: 3, name: 'Go', parent_id: 2 }],
      company_location: { id: 1, name: 'Client Co Utrecht', city: 'Utrecht', country_code: 'NL' },
      workplace_type: 'on_site',
      remote_countries: [],
    });
    expect(Object.keys(item)).not.toContain('description');
  });

  it('adds header_image, compensation and company_name only with their flags', async () => {
    const withFlags = await api.get(
      '/vacancies?include_media=true&include_compensation=1&include_company_name=true',
      KEY,
    );
    expect(withFlags.status).toBe(200);
    const one = withFlags.body.data.find((v: { id: number }) => v.id === 1);
    expect(one.header_image).toEqual({
      default: 'https://cdn.acme.example/1.jpg',
      small: null,
      large: 'https://cdn.acme.example/1-l.jpg',
    });
    expect(one.compensation).toEqual({ min: 5000, max: 6500, currency: 'EUR', period: 'month' });
    expect(one.company_location).toEqual({
      id: 1,
      name: 'Client Co Utrecht',
      city: 'Utrecht',
      country_code: 'NL',
      company_name: 'Client Co',
    });
    const four = withFlags.body.data.find((v: { id: number }) => v.id === 4);
    expect(four).toMatchObject({
      header_image: null,
      compensation: null,
      company_location: null,
      location: null,
      department: null,
    });
    expect(four.job_types).toEqual([]);

    const withoutFlags = await api.get('/vacancies?include_media=false&include_compensation=0', KEY);
    for (const item of withoutFlags.body.data) {
      expect(item).not.toHaveProperty('header_image');
      expect(item).not.toHaveProperty('compensation');
      if (item.company_location) expect(item.company_location).not.toHaveProperty('company_name');
    }
  });

  it('builds url from the canonical URL, else the tenant pattern, else null', async () => {
    const response = await api.get('/vacancies', KEY);
    const urlOf = (id: number) => response.body.data.find((v: { id: number }) => v.id === id).url;
    expect(urlOf(2)).toBe('https://careers.acme.example/custom/frontend');
    expect(urlOf(4)).toBe('https://careers.acme.example/vacancies/data-engineer?ref=4');
    const globex = await api.get('/vacancies', KEY_GLOBEX);
    expect(globex.body.data[0].url).toBeNull();
  });

  it('lists vacancies that no longer accept applications', async () => {
    const response = await api.get('/vacancies', KEY);
    expect(response.body.data.find((v: { id: number }) => v.id === 4).accepts_applications).toBe(false);
  });

  it('labels taxonomies in the request language, else the tenant default, else the first stored language', async () => {
    const dutch = await api.get('/vacancies?language=NL', KEY);
    expect(ids(dutch.body)).toEqual([3]);
    expect(dutch.body.data[0]).toMatchObject({
      department: { id: 1, name: 'Techniek' },
      job_types: [{ id: 1, name: 'Voltijd' }],
      tags: [{ id: 4, name: 'Verkoop', parent_id: null }],
    });
    // Department 2 has no English name: the tenant default (en) is missing too, so "de" (first alphabetically) is used.
    const german = await api.get('/vacancies?language=de', KEY);
    expect(german.body.data[0].department).toEqual({ id: 2, name: 'Betrieb' });
    const english = await api.get('/vacancies?department_id=2', KEY);
    expect(english.body.data[0].department).toEqual({ id: 2, name: 'Betrieb' });
    const globex = await api.get('/vacancies', KEY_GLOBEX);
    expect(globex.body.data[0]).toMatchObject({
      department: { id: 20, name: 'Techniek' },
      job_types: [{ id: 20, name: 'Voltijd' }],
      tags: [{ id: 20, name: 'Tech', parent_id: null }],
    });
  });
});

describe('GET /vacancies — filters', () => {
  it('filters by language (any case)', async () => {
    expect(await listIds('?language=de')).toEqual([5]);
    expect(await listIds('?language=EN')).toEqual([4, 12, 2, 1]);
    expect(await listIds('?language=fr')).toEqual([]);
  });

  it('filters by location_id given once, as an array, or both (union)', async () => {
    expect(await listIds('?location_id=1')).toEqual([12, 1]);
    expect(await listIds('?location_id[]=3')).toEqual([3, 5]);
    expect(await listIds('?location_id[]=1&location_id[]=2')).toEqual([12, 2, 1]);
    expect(await listIds('?location_id=2&location_id[]=3')).toEqual([3, 2, 5]);
  });

  it('filters by department_id and company_location_id', async () => {
    expect(await listIds('?department_id=1')).toEqual([3, 2, 1]);
    expect(await listIds('?department_id[]=2&department_id[]=1')).toEqual([3, 2, 1, 5]);
    expect(await listIds('?company_location_id=1')).toEqual([1, 5]);
    expect(await listIds('?company_location_id[]=1')).toEqual([1, 5]);
  });

  it('filters by job types, experience and education levels (OR within, AND across)', async () => {
    expect(await listIds('?job_types[]=2')).toEqual([2, 5]);
    expect(await listIds('?job_types[]=1&job_types[]=2')).toEqual([3, 2, 1, 5]);
    expect(await listIds('?experience_levels[]=1')).toEqual([2]);
    expect(await listIds('?education_levels[]=1&education_levels[]=2')).toEqual([3, 1]);
    expect(await listIds('?job_types[]=1&department_id=1&language=en')).toEqual([2, 1]);
  });

  it('matches a main tag by any tag below it, at any depth', async () => {
    expect(await listIds('?tags[]=1')).toEqual([2, 1, 5]);
    expect(await listIds('?tags[]=2')).toEqual([2, 1, 5]);
    expect(await listIds('?tags[]=3')).toEqual([1, 5]);
    expect(await listIds('?tags[]=3&tags[]=4')).toEqual([3, 1, 5]);
  });

  it('searches title and summary case-insensitively, literally', async () => {
    expect(await listIds('?search=ENGINEER')).toEqual([4, 12, 1]);
    expect(await listIds('?search=apis%20in')).toEqual([1]);
    expect(await listIds('?search=z%C3%BCrich')).toEqual([3, 5]);
    expect(await listIds('?search=100%25')).toEqual([2]);
    expect(await listIds('?search=%25')).toEqual([2]);
    expect(await listIds('?search=_')).toEqual([3]);
    expect(await listIds('?search=%5C')).toEqual([]);
    expect(await listIds('?search=%20%20engineer%20')).toEqual([4, 12, 1]);
    expect(await listIds('?search=%20%20')).toEqual([4, 12, 3, 2, 1, 5]);
    expect(await listIds('?search=nothing-like-this')).toEqual([]);
  });

  it('never matches another tenant’s vacancies', async () => {
    expect(await listIds('?search=globex')).toEqual([]);
    expect(await listIds('?search=backend', KEY_GLOBEX)).toEqual([100]);
  });

  it('ignores unknown parameters', async () => {
    expect(await listIds('?foo=bar&location=1')).toEqual([4, 12, 3, 2, 1, 5]);
  });
});

describe('GET /vacancies — sorting', () => {
  it.each([
    ['', [4, 12, 3, 2, 1, 5]],
    ['?sort=published_at&sort_direction=desc', [4, 12, 3, 2, 1, 5]],
    ['?sort=published_at&sort_direction=asc', [5, 1, 2, 3, 12, 4]],
    ['?sort=created_at', [4, 12, 2, 3, 1, 5]],
    ['?sort=created_at&sort_direction=asc', [5, 1, 3, 2, 12, 4]],
    ['?sort=title&sort_direction=asc', [3, 4, 12, 2, 5, 1]],
    ['?sort=title', [1, 5, 2, 12, 4, 3]],
  ])('%s', async (query, expected) => {
    expect(await listIds(query)).toEqual(expected);
  });

  it('pages never overlap or skip on ties', async () => {
    for (const query of ['sort=title&sort_direction=asc', 'sort=created_at', 'sort=published_at&sort_direction=asc']) {
      const all = await listIds(`?${query}`);
      const paged: number[] = [];
      for (let page = 1; page <= 6; page++) paged.push(...(await listIds(`?${query}&per_page=1&page=${page}`)));
      expect(paged).toEqual(all);
    }
  });
});

describe('GET /vacancies — pagination', () => {
  it('answers the Laravel envelope with absolute links that keep the query', async () => {
    const response = await api.get('/vacancies?per_page=2&page=2&sort=title&tags[]=1', KEY);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([2]);
    expect(response.body.meta).toMatchObject({ current_page: 2, per_page: 2, total: 3, last_page: 2, from: 3, to: 3 });
    const link = (value: string | null) => {
      expect(value).not.toBeNull();
      const url = new URL(value!);
      expect(url.origin + url.pathname).toBe(`${api.baseUrl}/vacancies`);
      expect(url.searchParams.get('sort')).toBe('title');
      expect(url.searchParams.getAll('tags[]')).toEqual(['1']);
      expect(url.searchParams.get('per_page')).toBe('2');
      return url.searchParams.get('page');
    };
    expect(link(response.body.links.first)).toBe('1');
    expect(link(response.body.links.last)).toBe('2');
    expect(link(response.body.links.prev)).toBe('1');
    expect(response.body.links.next).toBeNull();

    const first = await api.get('/vacancies?per_page=2', KEY);
    expect(first.body.links.prev).toBeNull();
    expect(new URL(first.body.links.next).searchParams.get('page')).toBe('2');
    expect(first.body.meta).toMatchObject({ last_page: 3, from: 1, to: 2, total: 6 });
  });

  it("keeps the request's query exactly in the links and sets only page (no per_page it did not send)", async () => {
    const response = await api.get('/vacancies?sort=title&language=en', KEY);
    expect(response.status).toBe(200);
    for (const value of [response.body.links.first, response.body.links.last]) {
      const url = new URL(value);
      expect([...url.searchParams.keys()].sort()).toEqual(['language', 'page', 'sort']);
      expect(url.searchParams.get('per_page')).toBeNull();
    }
  });

  it('answers an empty page past the end', async () => {
    const response = await api.get('/vacancies?page=9', KEY);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toMatchObject({ current_page: 9, total: 6, last_page: 1, from: null, to: null });
    expect(response.body.links.next).toBeNull();
  });

  it('answers last_page 1 when nothing matches', async () => {
    const response = await api.get('/vacancies?language=fr', KEY);
    expect(response.body.meta).toMatchObject({ total: 0, last_page: 1, from: null, to: null });
    expect(response.body.links.next).toBeNull();
    expect(response.body.links.prev).toBeNull();
  });
});

describe('GET /vacancies — validation', () => {
  const invalid = (field: string, message: string) => ({
    message: 'The given data was invalid.',
    errors: { [field]: [message] },
  });

  it.each([
    ['per_page=101', 'per_page', 'The per page must not be greater than 100.'],
    ['per_page=0', 'per_page', 'The per page must be at least 1.'],
    ['page=0', 'page', 'The page must be at least 1.'],
    ['page=abc', 'page', 'The page must be an integer.'],
    ['language=e1', 'language', 'The language must only contain letters.'],
    ['sort=views_count', 'sort', 'The selected sort is invalid.'],
    ['sort=Title', 'sort', 'The selected sort is invalid.'],
    ['sort_direction=up', 'sort_direction', 'The selected sort direction is invalid.'],
    ['include=tags', 'include', 'The selected include is invalid.'],
    ['include_media=yes', 'include_media', 'The include media field must be true or false.'],
    ['location_id=1&location_id=999', 'location_id.1', 'The selected location id.1 is invalid.'],
    ['location_id=999', 'location_id', 'The selected location id is invalid.'],
    ['department_id=20', 'department_id', 'The selected department id is invalid.'],
    ['company_location_id[]=20', 'company_location_id.0', 'The selected company location id.0 is invalid.'],
    ['job_types[]=1&job_types[]=20', 'job_types.1', 'The selected job types.1 is invalid.'],
    ['experience_levels[]=999', 'experience_levels.0', 'The selected experience levels.0 is invalid.'],
    ['education_levels[]=20', 'education_levels.0', 'The selected education levels.0 is invalid.'],
    ['tags[]=20', 'tags.0', 'The selected tags.0 is invalid.'],
  ])('%s → 422 on %s', async (query, field, message) => {
    const response = await api.get(`/vacancies?${query}`, KEY);
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid(field, message));
  });

  it('rejects a language that is not 2 characters', async () => {
    const response = await api.get('/vacancies?language=eng', KEY);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['language']);
    expect(response.body.errors.language[0]).toBe('The language must be 2 characters.');
  });

  it('rejects a search longer than 255 characters', async () => {
    const response = await api.get(`/vacancies?search=${'a'.repeat(256)}`, KEY);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['search']);
    expect((await api.get(`/vacancies?search=${'a'.repeat(255)}`, KEY)).status).toBe(200);
  });

  it('rejects non-integer ids', async () => {
    for (const query of ['location_id=abc', 'location_id=1.5', 'job_types[]=x', 'tags[]=-1']) {
      const response = await api.get(`/vacancies?${query}`, KEY);
      expect(response.status, query).toBe(422);
    }
  });

  it('reports every unknown filter id at once, each on its own path', async () => {
    const response = await api.get(
      '/vacancies?location_id[]=1&location_id[]=20&tags[]=999&tags[]=1&job_types[]=7&department_id=1',
      KEY,
    );
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({
      'location_id.1': ['The selected location id.1 is invalid.'],
      'tags.0': ['The selected tags.0 is invalid.'],
      'job_types.0': ['The selected job types.0 is invalid.'],
    });
  });

  it('treats ids beyond any stored id as unknown, not as a server error', async () => {
    const response = await api.get('/vacancies?location_id=99999999999&tags[]=1&tags[]=2147483648', KEY);
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({
      location_id: ['The selected location id is invalid.'],
      'tags.1': ['The selected tags.1 is invalid.'],
    });
  });

  it('answers a search with a NUL character with nothing found', async () => {
    expect(await listIds('?search=a%00b')).toEqual([]);
    const facets = await api.get('/vacancies/facets?search=%00', KEY);
    expect(facets.status).toBe(200);
    expect(facets.body.meta.total).toBe(0);
  });

  it('treats the other tenant’s ids as unknown, and its own as valid', async () => {
    const response = await api.get('/vacancies?location_id=1', KEY_GLOBEX);
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({ location_id: ['The selected location id is invalid.'] });
    expect(await listIds('?location_id=20&tags[]=20&job_types[]=20', KEY_GLOBEX)).toEqual([100]);
  });
});

describe('GET /vacancies/{slug}', () => {
  it('answers the complete vacancy', async () => {
    const response = await api.get('/vacancies/senior-backend-engineer?include_company_name=true', KEY);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: 1,
      slug: 'senior-backend-engineer',
      description: '<p>All about the role</p>',
      requirements: '<ul><li>Go</li></ul>',
      offer: null,
      url: 'https://careers.acme.example/vacancies/senior-backend-engineer?ref=1',
      location: { id: 1, slug: 'amsterdam', name: 'Amsterdam Office', city: 'Amsterdam', country_code: 'NL' },
      company_location: {
        id: 1,
        name: 'Client Co Utrecht',
        city: 'Utrecht',
        country_code: 'NL',
        company_name: 'Client Co',
      },
      tags: [{ id: 3, name: 'Go', parent_id: 2 }],
    });
    expect(response.body.data).not.toHaveProperty('header_image');
    expect(response.body.data).not.toHaveProperty('compensation');
    const list = await api.get('/vacancies?location_id=1', KEY);
    const { views_count: _detailViews, ...detailRest } = response.body.data;
    const { views_count: _listViews, ...listRest } = list.body.data.find((v: { id: number }) => v.id === 1);
    expect(detailRest).toEqual({
      ...listRest,
      company_location: detailRest.company_location,
      description: '<p>All about the role</p>',
      requirements: '<ul><li>Go</li></ul>',
      offer: null,
    });
  });

  it('labels in the requested language and adds the flagged parts', async () => {
    const response = await api.get(
      '/vacancies/senior-backend-engineer?language=nl&include_media=1&include_compensation=true',
      KEY,
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      department: { id: 1, name: 'Techniek' },
      job_types: [{ id: 1, name: 'Voltijd' }],
      experience_levels: [{ id: 2, name: 'Ervaren' }],
      education_levels: [{ id: 2, name: 'Master' }],
      header_image: {
        default: 'https://cdn.acme.example/1.jpg',
        small: null,
        large: 'https://cdn.acme.example/1-l.jpg',
      },
      compensation: { min: 5000, max: 6500, currency: 'EUR', period: 'month' },
    });
  });

  it('answers each tenant its own vacancy for a shared slug', async () => {
    const globex = await api.get('/vacancies/senior-backend-engineer', KEY_GLOBEX);
    expect(globex.status).toBe(200);
    expect(globex.body.data).toMatchObject({ id: 100, title: 'Globex Backend Engineer', url: null });
  });

  it.each([
    'draft',
    'unpublished',
    'future',
    'expired',
    'website-only',
    'never-published',
    'no-such-vacancy',
    'accountmanager-x',
    'ACCOUNTMANAGER',
    'a%00b',
    'x'.repeat(300),
    '%E2%9C%93',
  ])('%s → 404', async (slug) => {
    const response = await api.get(`/vacancies/${slug}`, KEY);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Resource not found.' });
  });

  it('is 404 for another tenant’s vacancy', async () => {
    const response = await api.get('/vacancies/data-engineer', KEY_GLOBEX);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Resource not found.' });
  });

  it('validates the query before looking the vacancy up', async () => {
    const response = await api.get('/vacancies/no-such-vacancy?language=dutch', KEY);
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The given data was invalid.');
    expect(response.body.errors.language[0]).toBe('The language must be 2 characters.');
    const flag = await api.get('/vacancies/data-engineer?include_media=maybe', KEY);
    expect(flag.status).toBe(422);
    expect(Object.keys(flag.body.errors)).toEqual(['include_media']);
  });

  it('counts views, batched', async () => {
    const before = (await api.get('/vacancies/accountmanager', KEY)).body.data.views_count as number;
    await api.get('/vacancies/accountmanager', KEY);
    await api.get('/vacancies/accountmanager', KEY);
    await eventually(async () =>
      expect((await api.get('/vacancies?language=nl', KEY)).body.data[0].views_count).toBe(before + 3),
    );
    // A 404 counts nothing.
    await api.get('/vacancies/draft', KEY);
    await api.services.flush();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await api.get('/vacancies?language=nl', KEY)).body.data[0].views_count).toBe(before + 3);
  });

  it('answers 304 to a matching If-None-Match and still counts the view', async () => {
    const first = await api.get('/vacancies/frontend-developer', KEY);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\//);
    const second = await api.get('/vacancies/frontend-developer', KEY, { 'if-none-match': etag! });
    expect(second.status).toBe(304);
    await eventually(async () =>
      expect((await api.get('/vacancies?location_id=2', KEY)).body.data[0].views_count).toBe(
        (first.body.data.views_count as number) + 2,
      ),
    );
  });
});

describe('OpenAPI', () => {
  it('documents the three vacancy reads with their parameters and errors', async () => {
    const doc = (await api.get('/openapi.json')).body;
    const list = doc.paths['/vacancies'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining([
        'page',
        'per_page',
        'language',
        'location_id',
        'job_types[]',
        'tags[]',
        'sort',
        'sort_direction',
        'include',
        'include_media',
      ]),
    );
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422']));
    const facets = doc.paths['/vacancies/facets'].get;
    expect(facets.parameters.map((p: { name: string }) => p.name)).not.toContain('page');
    const detail = doc.paths['/vacancies/{slug}'].get;
    expect(Object.keys(detail.responses)).toContain('404');
    expect(detail.parameters.find((p: { name: string }) => p.name === 'slug')).toMatchObject({
      in: 'path',
      required: true,
    });
  });
});
