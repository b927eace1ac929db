import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import { query } from './support/write-fixtures.ts';
import { nullPaths, vocabulary, vocabularyProblems } from './support/schema-org.ts';

/**
 * GET /vacancies/{slug}?include_structured_data=true: the vacancy as a schema.org JobPosting, property by property,
 * for vacancies with and without compensation, end date, location and job types; checked against the schema.org
 * vocabulary (types, property names, expected value types) on every answer.
 */

const KEY = 'ck_test_jobposting_hooli_read_0001';
const KEY_WRITE = 'ck_test_jobposting_hooli_write_002';
const KEY_PIED = 'ck_test_jobposting_piedpiper_0003';
const DAY = 86_400_000;
const NOW = Date.now();
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const PUBLISHED = at(-3 * DAY);
const ENDS = at(20 * DAY);

const JOB_TYPES = [
  { id: 1, name: { en: 'Full-time' }, employment_type: 'FULL_TIME' },
  { id: 2, name: { en: 'Part-time' }, employment_type: 'PART_TIME' },
  { id: 3, name: { en: 'Contract' }, employment_type: 'CONTRACTOR' },
  { id: 4, name: { en: 'Freelance' }, employment_type: 'CONTRACTOR' },
  { id: 5, name: { en: 'Traineeship' } },
];

const LOCATIONS = [
  {
    id: 1,
    slug: 'amsterdam',
    name: 'Amsterdam HQ',
    address_line_1: 'Keizersgracht 100',
    address_line_2: '3rd floor',
    address_line_3: null,
    locality: 'Amsterdam',
    administrative_area: 'North Holland',
    postal_code: '1015 AA',
    country_code: 'NL',
  },
  { id: 2, slug: 'berlin', name: 'Berlin', locality: 'Berlin', country_code: 'DE' },
  { id: 3, slug: 'somewhere', name: 'Somewhere' },
];

function vacancy(id: number, slug: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    slug,
    title: `Job ${id}`,
    language: 'en',
    status: 'published',
    channels: ['api'],
    published_at: PUBLISHED,
    created_at: at(-4 * DAY),
    ...fields,
  };
}

const VACANCIES = [
  vacancy(1, 'complete', {
    title: 'Senior Backend Engineer',
    summary: '<p>Build APIs</p>',
    description: '<p>All about the role</p>',
    requirements: '<ul><li>Go</li></ul>',
    offer: '<p>A good salary</p>',
    ends_at: ENDS,
    location_id: 1,
    job_type_ids: [1, 2, 3, 4, 5],
    compensation: { min: 4000, max: 5500.5, currency: 'EUR', period: 'month' },
  }),
  vacancy(2, 'bare', { accepts_applications: false }),
  vacancy(3, 'partial', {
    summary: '<p>Hourly work</p>',
    location_id: 2,
    job_type_ids: [5],
    compensation: { min: null, max: 30, currency: 'usd', period: 'hour' },
  }),
  vacancy(4, 'no-address', {
    description: '<p>Only a description</p>',
    offer: '<p>and an offer</p>',
    summary: '   ',
    location_id: 3,
    job_type_ids: [3],
  }),
  vacancy(5, 'amountless', {
    summary: '<p>Pay to be agreed</p>',
    compensation: { min: null, max: null, currency: 'EUR', period: 'year' },
  }),
];

function hooli(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug: 'hooli',
    name: 'Hooli B.V.',
    default_language: 'en',
    career_site: { domain: 'careers.hooli.example', url_pattern: 'https://careers.hooli.example/jobs/{slug}' },
    domains: ['hooli.example'],
    api_keys: [
      { id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read'] },
      { id: 2, name: 'Reporter', key: KEY_WRITE, scopes: ['vacancies:read', 'vacancies:write'] },
    ],
    locations: LOCATIONS,
    job_types: JOB_TYPES,
    vacancies: VACANCIES,
    ...fields,
  };
}

/** A tenant without a career site: no organization URL, no vacancy URL. */
const PIED_PIPER = {
  slug: 'pied-piper',
  name: 'Pied Piper',
  default_language: 'en',
  career_site: null,
  api_keys: [{ id: 3, name: 'Site', key: KEY_PIED, scopes: ['vacancies:read'] }],
  vacancies: [vacancy(9, 'compression', { summary: '<p>Middle out</p>' })],
};

let api: TTestApi;
let databaseUrl: string;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
  await importTenantDocument({ em: api.services.orm.em }, { tenants: [hooli(), PIED_PIPER] });
});
afterAll(async () => api?.close());

/** The structured data of a vacancy, checked against the vocabulary and for nulls on the way. */
async function posting(slug: string, flags = 'include_structured_data=true', key = KEY): Promise<Record<string, any>> {
  const response = await api.get(`/vacancies/${slug}?${flags}`, key);
  expect(response.status, response.text).toBe(200);
  const structured = response.body.data.structured_data;
  expect(structured, 'structured_data').toBeDefined();
  expect(vocabularyProblems(structured)).toEqual([]);
  expect(nullPaths(structured)).toEqual([]);
  expect(structured.url).toBe(response.body.data.url ?? undefined);
  return structured;
}

const HOOLI_ORGANIZATION = {
  '@type': 'Organization',
  name: 'Hooli B.V.',
  sameAs: 'https://careers.hooli.example',
  url: 'https://careers.hooli.example',
};

describe('GET /vacancies/{slug}?include_structured_data', () => {
  it('describes a complete vacancy property by property', async () => {
    expect(await posting('complete', 'include_structured_data=true&include_compensation=true')).toStrictEqual({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Senior Backend Engineer',
      description: '<p>Build APIs</p>\n<p>All about the role</p>\n<ul><li>Go</li></ul>\n<p>A good salary</p>',
      datePosted: PUBLISHED,
      validThrough: ENDS,
      employmentType: ['FULL_TIME', 'PART_TIME', 'CONTRACTOR'],
      hiringOrganization: HOOLI_ORGANIZATION,
      jobLocation: {
        '@type': 'Place',
        address: {
          '@type': 'PostalAddress',
          streetAddress: 'Keizersgracht 100, 3rd floor',
          addressLocality: 'Amsterdam',
          addressRegion: 'North Holland',
          postalCode: '1015 AA',
          addressCountry: 'NL',
        },
      },
      baseSalary: {
        '@type': 'MonetaryAmount',
        currency: 'EUR',
        value: { '@type': 'QuantitativeValue', minValue: 4000, maxValue: 5500.5, unitText: 'MONTH' },
      },
      identifier: { '@type': 'PropertyValue', name: 'Hooli B.V.', value: '1' },
      directApply: true,
      url: 'https://careers.hooli.example/jobs/complete',
    });
  });

  it('shows the salary only with include_compensation', async () => {
    const withSalary = await posting('complete', 'include_structured_data=1&include_compensation=1');
    const without = await posting('complete', 'include_structured_data=1');
    const withoutFlag = await posting('complete', 'include_structured_data=1&include_compensation=false');
    expect(without).not.toHaveProperty('baseSalary');
    expect(withoutFlag).toStrictEqual(without);
    const { baseSalary, ...rest } = withSalary;
    expect(baseSalary).toBeDefined();
    expect(rest).toStrictEqual(without);
  });

  it('leaves out what a bare vacancy does not have', async () => {
    // No content, end date, location, job types or compensation; closed for applications.
    expect(await posting('bare', 'include_structured_data=true&include_compensation=true')).toStrictEqual({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Job 2',
      datePosted: PUBLISHED,
      hiringOrganization: HOOLI_ORGANIZATION,
      identifier: { '@type': 'PropertyValue', name: 'Hooli B.V.', value: '2' },
      directApply: false,
      url: 'https://careers.hooli.example/jobs/bare',
    });
  });

  it('shows a partial salary, a partial address, and no employment type when no job type names one', async () => {
    const structured = await posting('partial', 'include_structured_data=true&include_compensation=true');
    expect(structured.baseSalary).toStrictEqual({
      '@type': 'MonetaryAmount',
      currency: 'USD',
      value: { '@type': 'QuantitativeValue', maxValue: 30, unitText: 'HOUR' },
    });
    expect(structured.jobLocation).toStrictEqual({
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressCountry: 'DE' },
    });
    expect(structured).not.toHaveProperty('employmentType');
    expect(structured).not.toHaveProperty('validThrough');
    expect(structured.description).toBe('<p>Hourly work</p>');
  });

  it('has no jobLocation for a location without an address, and joins only the content there is', async () => {
    const structured = await posting('no-address', 'include_structured_data=true');
    expect(structured).not.toHaveProperty('jobLocation');
    // A blank summary is left out; description and offer keep their order.
    expect(structured.description).toBe('<p>Only a description</p>\n<p>and an offer</p>');
    expect(structured.employmentType).toEqual(['CONTRACTOR']);
  });

  it('has no baseSalary for a compensation without an amount', async () => {
    const response = await api.get('/vacancies/amountless?include_structured_data=true&include_compensation=true', KEY);
    expect(response.body.data.compensation).toEqual({ min: null, max: null, currency: 'EUR', period: 'year' });
    expect(response.body.data.structured_data).not.toHaveProperty('baseSalary');
  });

  it('names a tenant without a career site by name only, and a vacancy without a URL has none', async () => {
    const structured = await posting('compression', 'include_structured_data=true', KEY_PIED);
    expect(structured.hiringOrganization).toStrictEqual({ '@type': 'Organization', name: 'Pied Piper' });
    expect(structured.identifier).toStrictEqual({ '@type': 'PropertyValue', name: 'Pied Piper', value: '9' });
    expect(structured).not.toHaveProperty('url');
  });

  it('is absent without the flag, and the flag parses like the other include_* flags', async () => {
    for (const flags of [
      '',
      'include_structured_data=false',
      'include_structured_data=0',
      'include_compensation=true',
    ]) {
      const response = await api.get(`/vacancies/complete?${flags}`, KEY);
      expect(response.status).toBe(200);
      expect(response.body.data, flags).not.toHaveProperty('structured_data');
    }
    for (const flags of ['include_structured_data=true', 'include_structured_data=1']) {
      expect((await api.get(`/vacancies/complete?${flags}`, KEY)).body.data.structured_data?.['@type'], flags).toBe(
        'JobPosting',
      );
    }
    for (const value of ['yes', 'TRUE', '2', '']) {
      const response = await api.get(`/vacancies/complete?include_structured_data=${value}`, KEY);
      expect(response.status, value).toBe(422);
      expect(response.body).toEqual({
        message: 'The given data was invalid.',
        errors: { include_structured_data: ['The include structured data field must be true or false.'] },
      });
    }
  });

  it('follows a reported canonical URL at once, from the cached answer', async () => {
    const before = await posting('complete');
    const hitsBefore = api.services.content.hits;
    const reported = 'https://careers.hooli.example/custom/senior-backend-engineer';
    expect((await api.post('/vacancies/complete/canonical-url', { url: reported }, KEY_WRITE)).status).toBe(200);
    const after = await posting('complete');
    expect(after.url).toBe(reported);
    expect(api.services.content.hits - hitsBefore).toBe(1);
    const { url: _before, ...restBefore } = before;
    const { url: _after, ...restAfter } = after;
    expect(restAfter).toStrictEqual(restBefore);
    // Cleared by hand: back to the tenant's pattern.
    await query(databaseUrl, 'update vacancies set canonical_url = null where id = 1');
    expect((await posting('complete')).url).toBe('https://careers.hooli.example/jobs/complete');
  });

  it("follows a change of the tenant's name and career site", async () => {
    await posting('complete');
    await importTenantDocument(
      { em: api.services.orm.em },
      {
        tenants: [
          hooli({
            name: 'Hooli Inc.',
            career_site: { domain: 'jobs.hooli.example', url_pattern: 'https://careers.hooli.example/jobs/{slug}' },
          }),
        ],
      },
    );
    // The key's tenant is read again within half a second (the key cache): a request meanwhile may still see the
    // old name, and what it computes must not be served once the new name is known.
    await posting('complete');
    await sleep(600);
    const structured = await posting('complete');
    expect(structured.hiringOrganization).toStrictEqual({
      '@type': 'Organization',
      name: 'Hooli Inc.',
      sameAs: 'https://jobs.hooli.example',
      url: 'https://jobs.hooli.example',
    });
    expect(structured.identifier.name).toBe('Hooli Inc.');
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [hooli()] });
    await sleep(600);
    expect((await posting('complete')).hiringOrganization).toStrictEqual(HOOLI_ORGANIZATION);
  });

  it("follows a change of the job types' employment types", async () => {
    expect((await posting('complete')).employmentType).toEqual(['FULL_TIME', 'PART_TIME', 'CONTRACTOR']);
    const changed = JOB_TYPES.map((type) =>
      type.id === 2
        ? { ...type, employment_type: 'TEMPORARY' }
        : type.id === 1
          ? { ...type, employment_type: null }
          : type,
    );
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [hooli({ job_types: changed })] });
    expect((await posting('complete')).employmentType).toEqual(['TEMPORARY', 'CONTRACTOR']);
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [hooli()] });
  });

  it('serves no script, event handler, javascript: URL, iframe or style, from imported HTML or from HTML stored before', async () => {
    const unsafe = /<\s*(script|iframe|style|object|embed)|\son[a-z]+\s*=|javascript:|\sstyle\s*=/i;
    const hostile = {
      summary: '<p>Hi<script>alert(1)</script> <b>there</b></p>',
      description:
        '<img src="https://img.example/a.png" onerror="alert(1)"><a href="javascript:alert(1)">x</a><a href="JaVaScRiPt:alert(2)">y</a>',
      requirements:
        '<iframe src="https://evil.example"></iframe><p style="background:url(javascript:alert(1))">styled</p><style>body{}</style>',
      offer: '<svg><script>alert(1)</script></svg><math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    };
    await importTenantDocument(
      { em: api.services.orm.em },
      {
        tenants: [hooli({ vacancies: [...VACANCIES, vacancy(6, 'hostile', hostile)] })],
      },
    );
    const response = await api.get('/vacancies/hostile?include_structured_data=true', KEY);
    expect(response.status, response.text).toBe(200);
    const { data } = response.body;
    for (const field of ['summary', 'description', 'requirements', 'offer'] as const)
      expect(data[field], field).not.toMatch(unsafe);
    expect(data.structured_data.description).not.toMatch(unsafe);
    // What is harmless stays: formatting, a link's text, an https image.
    expect(data.summary).toBe('<p>Hi <b>there</b></p>');
    expect(data.description).toBe('<img src="https://img.example/a.png" /><a>x</a><a>y</a>');
    const stored = await query(
      databaseUrl,
      'select summary, description, requirements, offer from vacancies where id = 6',
    );
    expect(Object.values(stored[0]!).join('\n')).not.toMatch(unsafe);
    // HTML written before the import sanitized it (by hand here) does not reach the JSON-LD either.
    await query(databaseUrl, `update vacancies set description = $1 where id = 6`, [
      '<p>old</p><script>alert(3)</script><img src=x onerror=alert(4)>',
    ]);
    const older = await api.get('/vacancies/hostile?include_structured_data=true', KEY);
    expect(older.body.data.structured_data.description).toContain('<p>old</p>');
    expect(older.body.data.structured_data.description).not.toMatch(unsafe);
  });

  it('holds, for arbitrary vacancy content, only schema.org terms and no nulls, and says what the vacancy says', async () => {
    // Any Unicode text within the document's length limits (which count UTF-16 code units); PostgreSQL refuses NUL.
    const text = (maxLength: number) =>
      fc
        .string({ unit: 'grapheme', maxLength: Math.ceil(maxLength / 3) })
        .map((s) => s.replaceAll('\u0000', ''))
        .filter((s) => s.length <= maxLength);
    const nullableText = (maxLength: number) => fc.option(text(maxLength), { nil: null });
    const employmentType = fc.option(
      fc.constantFrom('FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN', 'VOLUNTEER', 'PER_DIEM', 'OTHER'),
      { nil: null },
    );
    const amount = fc.option(fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true }), { nil: null });
    const content = fc.record({
      title: text(80).filter((title) => title.trim().length > 0),
      summary: nullableText(200),
      description: nullableText(200),
      requirements: nullableText(200),
      offer: nullableText(200),
      accepts_applications: fc.boolean(),
      ends_at: fc.option(
        fc.integer({ min: 1, max: 400 }).map((days) => at(days * DAY)),
        { nil: null },
      ),
      compensation: fc.option(
        fc
          .record({
            // The document refuses a maximum below the minimum.
            range: fc.tuple(amount, amount).map(([a, b]) => (a !== null && b !== null && b < a ? [b, a] : [a, b])),
            currency: fc.constantFrom('EUR', 'usd', 'GBP'),
            period: fc.constantFrom('hour', 'day', 'week', 'month', 'year'),
          })
          .map(({ range: [min, max], ...rest }) => ({ min: min ?? null, max: max ?? null, ...rest })),
        { nil: null },
      ),
      location: fc.option(
        fc.record({
          address_line_1: nullableText(60),
          address_line_2: nullableText(60),
          address_line_3: nullableText(60),
          locality: nullableText(60),
          administrative_area: nullableText(60),
          postal_code: nullableText(20),
          country_code: fc.option(fc.constantFrom('NL', 'de', 'US'), { nil: null }),
        }),
        { nil: null },
      ),
      employment_types: fc.array(employmentType, { maxLength: 4 }),
      canonical_url: fc.option(fc.constantFrom('https://careers.hooli.example/x', 'https://hooli.example/jobs/y?z=1'), {
        nil: null,
      }),
    });
    await fc.assert(
      fc.asyncProperty(content, async (c) => {
        const jobTypes = c.employment_types.map((type, i) => ({
          id: 100 + i,
          name: { en: `Type ${i}` },
          employment_type: type,
        }));
        await importTenantDocument(
          { em: api.services.orm.em },
          {
            tenants: [
              hooli({
                locations: c.location ? [{ id: 100, slug: 'arbitrary', name: 'Arbitrary', ...c.location }] : [],
                job_types: jobTypes,
                vacancies: [
                  vacancy(100, 'arbitrary', {
                    ...c,
                    location: undefined,
                    employment_types: undefined,
                    location_id: c.location ? 100 : null,
                    job_type_ids: jobTypes.map((type) => type.id),
                  }),
                ],
              }),
            ],
          },
        );
        const response = await api.get(
          '/vacancies/arbitrary?include_structured_data=true&include_compensation=true',
          KEY,
        );
        expect(response.status, response.text).toBe(200);
        const { data } = response.body;
        const structured = data.structured_data;
        expect(vocabularyProblems(structured)).toEqual([]);
        expect(nullPaths(structured)).toEqual([]);
        expect(structured.title).toBe(data.title);
        expect(structured.datePosted).toBe(data.published_at);
        expect(structured.validThrough).toBe(data.ends_at ?? undefined);
        expect(structured.directApply).toBe(data.accepts_applications);
        expect(structured.url).toBe(data.url);
        expect(structured.identifier.value).toBe(String(data.id));
        const parts = [data.summary, data.description, data.requirements, data.offer].filter(
          (part: string | null) => part !== null && part.trim() !== '',
        );
        expect(structured.description).toBe(parts.length > 0 ? parts.join('\n') : undefined);
        const types = [...new Set(c.employment_types.filter((type) => type !== null))];
        expect(structured.employmentType).toEqual(types.length > 0 ? types : undefined);
        const hasAmount = c.compensation !== null && (c.compensation.min !== null || c.compensation.max !== null);
        expect(structured.baseSalary !== undefined).toBe(hasAmount);
        if (hasAmount) expect(structured.baseSalary.value.unitText).toBe(c.compensation?.period.toUpperCase());
        expect(structured.jobLocation?.address.addressCountry).toBe(
          c.location?.country_code?.toUpperCase() ?? undefined,
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe('the schema.org check', () => {
  it('is taken from the vocabulary: the types used and their inherited properties', () => {
    expect(Object.keys(vocabulary.types).sort()).toEqual([
      'JobPosting',
      'MonetaryAmount',
      'Organization',
      'Place',
      'PostalAddress',
      'PropertyValue',
      'QuantitativeValue',
    ]);
    expect(vocabulary.types.PostalAddress?.subClassOf).toEqual([
      'ContactPoint',
      'StructuredValue',
      'Intangible',
      'Thing',
    ]);
    // Inherited from Thing and ContactPoint.
    expect(vocabulary.types.PostalAddress?.properties).toHaveProperty('name');
    expect(vocabulary.types.PostalAddress?.properties).toHaveProperty('email');
  });

  it('finds invented terms, misplaced properties and values of the wrong type', () => {
    const valid = { '@type': 'JobPosting', title: 'T', datePosted: '2026-01-01T00:00:00.000Z', directApply: true };
    expect(vocabularyProblems(valid)).toEqual([]);
    expect(vocabularyProblems({ ...valid, salary: 5 })).toEqual(['$.salary: not a property of JobPosting']);
    expect(vocabularyProblems({ ...valid, '@type': 'Job' })).toEqual(['$: unknown @type "Job"']);
    expect(vocabularyProblems({ ...valid, directApply: 'yes' })).toEqual(['$.directApply: "yes" is none of Boolean']);
    expect(vocabularyProblems({ ...valid, datePosted: 'yesterday' })).toHaveLength(1);
    expect(
      vocabularyProblems({ ...valid, hiringOrganization: { '@type': 'Organization', streetAddress: 'x' } }),
    ).toEqual(['$.hiringOrganization.streetAddress: not a property of Organization']);
    expect(vocabularyProblems({ ...valid, jobLocation: { '@type': 'PostalAddress' } })).toEqual([
      '$.jobLocation: a PostalAddress where Place is expected',
    ]);
    expect(nullPaths({ a: [1, null], b: { c: null } })).toEqual(['$.a[1]', '$.b.c']);
  });
});
