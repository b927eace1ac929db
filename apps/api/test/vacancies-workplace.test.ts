import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import { DAY, emptyTenant, type TTenantDoc, type TVacancyDoc } from './support/vacancy-fixtures.ts';

const KEY = 'ck_test_workplace_acme_read_00001';
const NOW = Date.now();
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

type TWorkplaceVacancy = TVacancyDoc & { workplace_type?: string; remote_countries?: string[] };

function vacancy(id: number, fields: Partial<TWorkplaceVacancy>): TWorkplaceVacancy {
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

const ACME = (defaultCountry: string): TTenantDoc & { default_country: string } => ({
  ...emptyTenant('acme', {
    default_language: 'nl',
    api_keys: [{ id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read'] }],
    locations: [
      { id: 1, slug: 'amsterdam', name: 'Amsterdam', locality: 'Amsterdam', country_code: 'NL' },
      { id: 2, slug: 'nowhere', name: 'Office', locality: 'Somewhere', country_code: null },
    ],
    vacancies: [
      vacancy(1, { title: 'On site', location_id: 1 }),
      vacancy(2, { title: 'Hybrid', workplace_type: 'hybrid', location_id: 2 }),
      vacancy(3, {
        title: 'Remote anywhere in two',
        workplace_type: 'remote',
        remote_countries: ['nl', 'BE'],
        location_id: 1,
      }),
      vacancy(4, { title: 'Remote default', workplace_type: 'remote' }),
      vacancy(5, { title: 'Not remote, countries ignored', workplace_type: 'on_site', remote_countries: ['DE'] }),
    ] as TVacancyDoc[],
  }),
  default_country: defaultCountry,
});

let api: TTestApi;

beforeAll(async () => {
  api = await startTestApi(await createTestDatabase());
  await importTenantDocument({ em: api.services.orm.em }, { tenants: [ACME('NL')] });
});
afterAll(async () => api?.close());

async function get(path: string) {
  const response = await api.get(path, KEY);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe('workplace_type and remote_countries', () => {
  it('are on every list item and detail (on_site by default; countries only when remote)', async () => {
    const body = await get('/vacancies?sort=title&sort_direction=asc');
    const byId = Object.fromEntries(
      body.data.map((item: any) => [item.id, [item.workplace_type, item.remote_countries]]),
    );
    expect(byId).toEqual({
      1: ['on_site', []],
      2: ['hybrid', []],
      3: ['remote', ['NL', 'BE']],
      4: ['remote', []],
      5: ['on_site', []],
    });
    const detail = await get('/vacancies/job-3');
    expect([detail.data.workplace_type, detail.data.remote_countries]).toEqual(['remote', ['NL', 'BE']]);
  });

  it('filter with workplace_types[] (any of them), 422 on an unknown value', async () => {
    expect((await get('/vacancies?workplace_types[]=remote')).data.map((item: any) => item.id)).toEqual([3, 4]);
    expect((await get('/vacancies?workplace_types[]=remote&workplace_types[]=hybrid')).meta.total).toBe(3);
    expect((await get('/vacancies?workplace_types=on_site')).meta.total).toBe(2);
    const bad = await api.get('/vacancies?workplace_types[]=office', KEY);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['workplace_types.0']);
  });

  it('have a facet group with localized names, whose counts equal the filtered totals', async () => {
    const facets = await get('/vacancies/facets');
    expect(facets.data.workplace_types).toEqual([
      { id: 'remote', name: 'Op afstand', count: 2, selected: false },
      { id: 'on_site', name: 'Op locatie', count: 2, selected: false },
      { id: 'hybrid', name: 'Hybride', count: 1, selected: false },
    ]);
    const english = await get('/vacancies/facets?workplace_types[]=hybrid&language=en');
    expect(english.data.workplace_types).toEqual([{ id: 'hybrid', name: 'Hybrid', count: 1, selected: true }]);
    for (const entry of facets.data.workplace_types) {
      expect((await get(`/vacancies?workplace_types[]=${entry.id}`)).meta.total).toBe(entry.count);
    }
  });

  it("structured data follows Google's rules for remote jobs; every jobLocation has addressCountry", async () => {
    const remote = (await get('/vacancies/job-3?include_structured_data=true')).data.structured_data;
    expect(remote.jobLocationType).toBe('TELECOMMUTE');
    expect(remote.applicantLocationRequirements).toEqual([
      { '@type': 'Country', name: 'NL' },
      { '@type': 'Country', name: 'BE' },
    ]);
    expect(remote.jobLocation).toBeUndefined();
    const fallback = (await get('/vacancies/job-4?include_structured_data=true')).data.structured_data;
    expect(fallback.applicantLocationRequirements).toEqual([{ '@type': 'Country', name: 'NL' }]);
    const onSite = (await get('/vacancies/job-1?include_structured_data=true')).data.structured_data;
    expect(onSite.jobLocationType).toBeUndefined();
    expect(onSite.jobLocation.address.addressCountry).toBe('NL');
    // A location without a country: the tenant's default country.
    const hybrid = (await get('/vacancies/job-2?include_structured_data=true')).data.structured_data;
    expect(hybrid.jobLocation.address).toEqual({
      '@type': 'PostalAddress',
      addressLocality: 'Somewhere',
      addressCountry: 'NL',
    });
  });

  it("a change of the tenant's default country in a re-import changes cached answers (the content version moves)", async () => {
    expect(
      (await get('/vacancies/job-4?include_structured_data=true')).data.structured_data.applicantLocationRequirements,
    ).toEqual([{ '@type': 'Country', name: 'NL' }]);
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [ACME('BE')] });
    expect(
      (await get('/vacancies/job-4?include_structured_data=true')).data.structured_data.applicantLocationRequirements,
    ).toEqual([{ '@type': 'Country', name: 'BE' }]);
  });
});
