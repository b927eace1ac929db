import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import { DAY, emptyTenant, type TTenantDoc, type TVacancyDoc } from './support/vacancy-fixtures.ts';

const KEY = 'ck_test_facets_initech_read_0001';
const KEY_NO_SCOPE = 'ck_test_facets_initech_team_0002';
const KEY_HOOLI = 'ck_test_facets_hooli_read_00003';

const NOW = Date.now();
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

function vacancy(id: number, fields: Partial<TVacancyDoc>): TVacancyDoc {
  return {
    id,
    slug: `job-${id}`,
    title: `Job ${id}`,
    language: 'nl',
    status: 'published',
    channels: ['api'],
    published_at: at(-id * DAY),
    created_at: at(-40 * DAY),
    ...fields,
  };
}

/** Initech speaks Dutch by default. Vacancy 1 is tagged at three levels of one branch (Tech > Backend > Go). */
const INITECH: TTenantDoc = emptyTenant('initech', {
  default_language: 'nl',
  api_keys: [
    { id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read'] },
    { id: 2, name: 'Team', key: KEY_NO_SCOPE, scopes: ['team:read'] },
  ],
  locations: [
    { id: 1, slug: 'utrecht', name: 'Utrecht Office', locality: 'Utrecht', country_code: 'NL' },
    { id: 2, slug: 'berlin', name: 'Berlin Hub', locality: 'Berlin', country_code: 'DE' },
    { id: 3, slug: 'zurich', name: 'Hub', locality: 'Zürich', country_code: 'CH' },
    { id: 4, slug: 'antwerp', name: 'hub', locality: 'Antwerpen', country_code: 'BE' },
    { id: 5, slug: 'unused', name: 'Unused', locality: null, country_code: null },
  ],
  departments: [
    { id: 1, name: { nl: 'Techniek', en: 'Engineering' } },
    { id: 2, name: { nl: 'Verkoop', en: 'Sales' } },
    { id: 3, name: 'Finance' },
    { id: 4, name: { nl: 'Leeg' } },
  ],
  job_types: [
    { id: 1, name: { nl: 'Voltijd', en: 'Full-time' } },
    { id: 2, name: { nl: 'Deeltijd', en: 'Part-time' } },
    { id: 3, name: { en: 'Internship' } },
  ],
  experience_levels: [
    { id: 1, name: { en: 'Junior' } },
    { id: 2, name: { en: 'Medior' } },
    { id: 3, name: { en: 'Senior' } },
  ],
  education_levels: [
    { id: 1, name: { en: 'MBO' } },
    { id: 2, name: { en: 'HBO' } },
    { id: 3, name: { en: 'WO' } },
  ],
  tags: [
    { id: 1, name: { en: 'Tech' }, parent_id: null },
    { id: 2, name: { en: 'Backend' }, parent_id: 1 },
    { id: 3, name: { en: 'Frontend' }, parent_id: 1 },
    { id: 4, name: { en: 'Go' }, parent_id: 2 },
    { id: 5, name: { en: 'Sales' }, parent_id: null },
    { id: 6, name: { en: 'Unused' }, parent_id: null },
  ],
  vacancies: [
    vacancy(1, {
      location_id: 1,
      department_id: 1,
      job_type_ids: [1],
      experience_level_ids: [3],
      education_level_ids: [3],
      tag_ids: [1, 2, 4],
    }),
    vacancy(2, {
      location_id: 1,
      department_id: 1,
      job_type_ids: [1, 2],
      experience_level_ids: [2],
      education_level_ids: [2],
      tag_ids: [3],
    }),
    vacancy(3, {
      language: 'en',
      location_id: 2,
      department_id: 2,
      job_type_ids: [2],
      experience_level_ids: [1],
      tag_ids: [5],
    }),
    vacancy(4, {
      language: 'en',
      location_id: 3,
      department_id: 3,
      job_type_ids: [3],
      education_level_ids: [1],
      tag_ids: [4],
    }),
    vacancy(5, { language: 'de', location_id: 4 }),
    vacancy(6, { location_id: null, department_id: 2, job_type_ids: [1], tag_ids: [2] }),
    // Invisible: must count nowhere.
    vacancy(7, { status: 'draft', location_id: 5, department_id: 4, job_type_ids: [1], tag_ids: [6] }),
    vacancy(8, { ends_at: at(-DAY), location_id: 1, department_id: 1, tag_ids: [1] }),
    vacancy(9, { channels: ['website'], location_id: 5, tag_ids: [6] }),
  ],
});

const HOOLI: TTenantDoc = emptyTenant('hooli', {
  api_keys: [{ id: 3, name: 'Site', key: KEY_HOOLI, scopes: ['vacancies:read'] }],
  locations: [{ id: 50, slug: 'utrecht', name: 'Utrecht Office', locality: 'Utrecht', country_code: 'NL' }],
  tags: [{ id: 50, name: { en: 'Tech' }, parent_id: null }],
  vacancies: [vacancy(50, { location_id: 50, tag_ids: [50] }), vacancy(51, { location_id: 50, language: 'en' })],
});

let api: TTestApi;

beforeAll(async () => {
  const url = await createTestDatabase();
  api = await startTestApi(url);
  await importTenantDocument({ em: api.services.orm.em }, { tenants: [INITECH, HOOLI] });
});
afterAll(async () => api?.close());

async function facets(query = '', key = KEY) {
  const response = await api.get(`/vacancies/facets${query}`, key);
  expect(response.status, response.text).toBe(200);
  return response.body as { data: Record<string, Array<Record<string, unknown>>>; meta: { total: number } };
}

describe('GET /vacancies/facets', () => {
  it('counts every group over the visible vacancies, labelled in the tenant default language', async () => {
    const body = await facets();
    expect(body.meta).toEqual({ total: 6 });
    expect(body.data).toEqual({
      locations: [
        {
          id: 1,
          name: 'Utrecht Office',
          city: 'Utrecht',
          country_code: 'NL',
          country_name: 'Nederland',
          count: 2,
          selected: false,
        },
        {
          id: 2,
          name: 'Berlin Hub',
          city: 'Berlin',
          country_code: 'DE',
          country_name: 'Duitsland',
          count: 1,
          selected: false,
        },
        {
          id: 3,
          name: 'Hub',
          city: 'Zürich',
          country_code: 'CH',
          country_name: 'Zwitserland',
          count: 1,
          selected: false,
        },
        {
          id: 4,
          name: 'hub',
          city: 'Antwerpen',
          country_code: 'BE',
          country_name: 'België',
          count: 1,
          selected: false,
        },
      ],
      departments: [
        { id: 1, name: 'Techniek', count: 2, selected: false },
        { id: 2, name: 'Verkoop', count: 2, selected: false },
        { id: 3, name: 'Finance', count: 1, selected: false },
      ],
      job_types: [
        { id: 1, name: 'Voltijd', count: 3, selected: false },
        { id: 2, name: 'Deeltijd', count: 2, selected: false },
        { id: 3, name: 'Internship', count: 1, selected: false },
      ],
      experience_levels: [
        { id: 1, name: 'Junior', count: 1, selected: false },
        { id: 2, name: 'Medior', count: 1, selected: false },
        { id: 3, name: 'Senior', count: 1, selected: false },
      ],
      education_levels: [
        { id: 2, name: 'HBO', count: 1, selected: false },
        { id: 1, name: 'MBO', count: 1, selected: false },
        { id: 3, name: 'WO', count: 1, selected: false },
      ],
      tags: [
        { id: 1, name: 'Tech', parent_id: null, count: 4, selected: false },
        { id: 2, name: 'Backend', parent_id: 1, count: 3, selected: false },
        { id: 4, name: 'Go', parent_id: 2, count: 2, selected: false },
        { id: 3, name: 'Frontend', parent_id: 1, count: 1, selected: false },
        { id: 5, name: 'Sales', parent_id: null, count: 1, selected: false },
      ],
      languages: [
        { code: 'nl', count: 3, selected: false },
        { code: 'en', count: 2, selected: false },
        { code: 'de', count: 1, selected: false },
      ],
      workplace_types: [{ id: 'on_site', name: 'Op locatie', count: 6, selected: false }],
    });
  });

  it('applies every filter before counting and localizes labels and country names', async () => {
    const body = await facets('?language=EN');
    expect(body.meta.total).toBe(2);
    expect(body.data.locations).toEqual([
      {
        id: 2,
        name: 'Berlin Hub',
        city: 'Berlin',
        country_code: 'DE',
        country_name: 'Germany',
        count: 1,
        selected: false,
      },
      {
        id: 3,
        name: 'Hub',
        city: 'Zürich',
        country_code: 'CH',
        country_name: 'Switzerland',
        count: 1,
        selected: false,
      },
    ]);
    expect(body.data.departments).toEqual([
      { id: 3, name: 'Finance', count: 1, selected: false },
      { id: 2, name: 'Sales', count: 1, selected: false },
    ]);
    expect(body.data.job_types).toEqual([
      { id: 3, name: 'Internship', count: 1, selected: false },
      { id: 2, name: 'Part-time', count: 1, selected: false },
    ]);
    expect(body.data.tags!.map((t) => [t.name, t.count])).toEqual([
      ['Backend', 1],
      ['Go', 1],
      ['Sales', 1],
      ['Tech', 1],
    ]);
    expect(body.data.languages).toEqual([{ code: 'en', count: 2, selected: true }]);
  });

  it('marks only the requested values as selected, and drops entries without matches', async () => {
    const body = await facets('?tags[]=2&location_id=1&job_types[]=1&job_types[]=2');
    expect(body.meta.total).toBe(1);
    expect(body.data.locations!.map((l) => [l.id, l.count, l.selected])).toEqual([[1, 1, true]]);
    expect(body.data.job_types).toEqual([{ id: 1, name: 'Voltijd', count: 1, selected: true }]);
    expect(body.data.tags!.map((t) => [t.id, t.count, t.selected])).toEqual([
      [2, 1, true],
      [4, 1, false],
      [1, 1, false],
    ]);
    expect(body.data.languages).toEqual([{ code: 'nl', count: 1, selected: false }]);
  });

  it('answers empty groups when nothing matches', async () => {
    const body = await facets('?search=no-such-words');
    expect(body).toEqual({
      data: {
        locations: [],
        departments: [],
        job_types: [],
        experience_levels: [],
        education_levels: [],
        tags: [],
        languages: [],
        workplace_types: [],
      },
      meta: { total: 0 },
    });
  });

  it('ignores page, per_page and the list-only parameters', async () => {
    const plain = await facets();
    const withPaging = await facets('?page=abc&per_page=1000&sort=nonsense');
    expect(withPaging).toEqual(plain);
  });

  it('validates filters like the list', async () => {
    const unknown = await api.get('/vacancies/facets?location_id=50&tags[]=1&tags[]=6&tags[]=50', KEY);
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      message: 'The given data was invalid.',
      errors: { location_id: ['The selected location id is invalid.'], 'tags.2': ['The selected tags.2 is invalid.'] },
    });
    const language = await api.get('/vacancies/facets?language=nld', KEY);
    expect(language.status).toBe(422);
    expect(Object.keys(language.body.errors)).toEqual(['language']);
  });

  it('needs the vacancies:read scope', async () => {
    expect((await api.get('/vacancies/facets')).status).toBe(401);
    const noScope = await api.get('/vacancies/facets', KEY_NO_SCOPE);
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toBe('INSUFFICIENT_SCOPE');
  });

  it('counts only the key’s tenant', async () => {
    const body = await facets('', KEY_HOOLI);
    expect(body.meta.total).toBe(2);
    expect(body.data.locations).toEqual([
      {
        id: 50,
        name: 'Utrecht Office',
        city: 'Utrecht',
        country_code: 'NL',
        country_name: 'Netherlands',
        count: 2,
        selected: false,
      },
    ]);
    expect(body.data.tags).toEqual([{ id: 50, name: 'Tech', parent_id: null, count: 1, selected: false }]);
    expect(body.data.languages).toEqual([
      { code: 'en', count: 1, selected: false },
      { code: 'nl', count: 1, selected: false },
    ]);
  });
});

describe('GET /vacancies?include=facets', () => {
  it('adds the same facets beside data, meta and links', async () => {
    for (const query of ['language=nl', 'tags[]=1&search=job', 'department_id[]=1&department_id[]=2']) {
      const list = await api.get(`/vacancies?include=facets&per_page=1&${query}`, KEY);
      expect(list.status).toBe(200);
      expect(Object.keys(list.body).sort()).toEqual(['data', 'facets', 'links', 'meta']);
      const alone = await facets(`?${query}`);
      expect(list.body.facets).toEqual(alone.data);
      expect(list.body.meta.total).toBe(alone.meta.total);
    }
    const without = await api.get('/vacancies', KEY);
    expect(without.body).not.toHaveProperty('facets');
  });
});

describe('facet invariant', () => {
  const groupFilter: Record<string, (value: string | number) => string> = {
    locations: (id) => `location_id=${id}`,
    departments: (id) => `department_id=${id}`,
    job_types: (id) => `job_types[]=${id}`,
    experience_levels: (id) => `experience_levels[]=${id}`,
    education_levels: (id) => `education_levels[]=${id}`,
    tags: (id) => `tags[]=${id}`,
    languages: (code) => `language=${code}`,
    workplace_types: (code) => `workplace_types[]=${code}`,
  };

  it.each([
    '',
    'language=nl',
    'tags[]=1',
    'job_types[]=1&job_types[]=3',
    'search=JOB%201',
    'location_id[]=1&location_id[]=2&department_id=1',
  ])('an entry count equals the list total with that one value filtered (%s)', async (query) => {
    const body = await facets(query ? `?${query}` : '');
    const setFilters = new Set(new URLSearchParams(query).keys());
    let checked = 0;
    for (const [group, entries] of Object.entries(body.data)) {
      const filterFor = groupFilter[group]!;
      const name = filterFor(0).split('=')[0]!.replace('[]', '');
      if (setFilters.has(name) || setFilters.has(`${name}[]`)) continue;
      for (const entry of entries) {
        const value = (entry.id ?? entry.code) as string | number;
        const list = await api.get(`/vacancies?per_page=1&${query}&${filterFor(value)}`, KEY);
        expect(list.body.meta.total, `${group} ${value}`).toBe(entry.count);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
