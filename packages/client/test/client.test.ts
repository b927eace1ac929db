import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createTestDatabase, queryRows } from '@careers/core/testing';
import { importTenantDocument, createApiKey, serviceContext } from '@careers/core/operations';
import { startTestApi, type TTestApi } from '../../../apps/api/test/support/api.ts';
import {
  CareersApiError,
  createCareersClient,
  toBase64,
  type TCareersClient,
  type TErrorCode,
  type TErrorOf,
} from '../src/index.ts';
import { careerTenant, careerVacancies, departmentCount, resumePdf } from './support/career-tenant.ts';

const KEY = 'ck_test_client_globex_all_00001';
const LIMITED = 'ck_test_client_globex_limit_0002';
let api: TTestApi;
let databaseUrl: string;
let careers: TCareersClient;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
  await importTenantDocument(
    { em: api.services.orm.em },
    {
      tenants: [
        careerTenant('globex', [
          { id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read', 'applications:write'] },
          { id: 2, name: 'Limited', key: LIMITED, scopes: ['applications:write'] },
        ]),
      ],
    },
  );
  careers = createCareersClient({ baseUrl: api.baseUrl, apiKey: KEY });
});
afterAll(async () => api?.close());

const rows = (text: string, values: unknown[] = []) => queryRows(databaseUrl, text, values);

describe('@careers/client against a started API', () => {
  it('lists vacancies page by page, with filters and facet counts that follow them', async () => {
    const visible = careerVacancies().filter((v) => v.status === 'published');
    const first = await careers.get('/vacancies', { params: { query: { per_page: 10, include: 'facets' } } });
    expect(first.meta.total).toBe(visible.length);
    expect(first.data).toHaveLength(10);
    // Newest first: vacancy 1 was published most recently.
    expect(first.data.map((v) => v.slug)).toEqual(visible.slice(0, 10).map((v) => v.slug));
    const departments = new Map(first.facets?.departments.map((f) => [f.id, f.count]));
    expect(departments).toEqual(new Map([1, 2, 3].map((id) => [id, departmentCount(id)])));

    const third = await careers.get('/vacancies', { params: { query: { per_page: 10, page: 3 } } });
    expect(third.meta.current_page).toBe(3);
    expect(third.data.map((v) => v.slug)).toEqual(visible.slice(20).map((v) => v.slug));

    const sales = await careers.get('/vacancies', {
      params: { query: { department_id: 2, 'job_types[]': [1], include: 'facets' } },
    });
    const expected = visible.filter((v) => v.department_id === 2 && (v.job_type_ids as number[]).includes(1));
    expect(sales.data.map((v) => v.slug).sort()).toEqual(expected.map((v) => v.slug).sort());
    // The location counts now count only the filtered vacancies.
    const locationCounts = Object.fromEntries(sales.facets?.locations.map((f) => [f.id, f.count]) ?? []);
    const expectedLocations: Record<string, number> = {};
    for (const v of expected)
      expectedLocations[String(v.location_id)] = (expectedLocations[String(v.location_id)] ?? 0) + 1;
    expect(locationCounts).toEqual(expectedLocations);
  });

  it('reads one vacancy', async () => {
    const { data } = await careers.get('/vacancies/{slug}', { params: { path: { slug: 'job-4' } } });
    const expected = careerVacancies().find((v) => v.slug === 'job-4')!;
    expect(data).toMatchObject({ id: 4, slug: 'job-4', title: expected.title, summary: expected.summary });
  });

  it('applies with a base64 PDF resume, stored with the application', async () => {
    const pdf = await resumePdf('Ada Lovelace — analytical engines');
    const answer = await careers.post('/applications', {
      body: {
        vacancy: 'job-4',
        candidate: { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' },
        documents: { resume: { filename: 'ada.pdf', content: toBase64(pdf), mime_type: 'application/pdf' } },
        privacy_policy_accepted: true,
      },
    });
    if (!('data' in answer)) throw new Error('expected the created application, not a dry run');
    const { data } = answer;
    expect(data.vacancy.slug).toBe('job-4');
    expect(data.candidate).toMatchObject({ given_name: 'Ada', family_name: 'Lovelace' });
    const [document] = await rows('select filename, content from documents where application_id = $1', [data.id]);
    expect(document?.filename).toBe('ada.pdf');
    expect(new Uint8Array(document?.content)).toEqual(pdf);
  });

  it('turns a 422 into a CareersApiError with the field errors', async () => {
    const failure = await careers
      .post('/applications', {
        body: { vacancy: 'job-4', candidate: { given_name: 'Ada', family_name: 'Lovelace', email: 'not an email' } },
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CareersApiError);
    const error = failure as CareersApiError;
    expect(error.status).toBe(422);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(['candidate.email']);
    expect(error.message).toBe('The given data was invalid.');
  });

  it('turns a 404 and a closed vacancy into CareersApiErrors with their codes', async () => {
    const missing = (await careers
      .get('/vacancies/{slug}', { params: { path: { slug: 'no-such-job' } } })
      .catch((e: unknown) => e)) as CareersApiError;
    expect(missing).toBeInstanceOf(CareersApiError);
    expect([missing.status, missing.body]).toEqual([404, { message: 'Resource not found.' }]);

    const candidate = { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' };
    const closed = (await careers
      .post('/applications', { body: { vacancy: 'job-1', candidate } })
      .catch((e: unknown) => e)) as CareersApiError;
    expect([closed.status, closed.code]).toEqual([400, 'VACANCY_CLOSED']);
    const unknown = (await careers
      .post('/applications', { body: { vacancy: 'job-404', candidate } })
      .catch((e: unknown) => e)) as CareersApiError;
    expect([unknown.status, unknown.code]).toEqual([404, 'VACANCY_NOT_FOUND']);
  });

  it('reports a wrong key as a 401 CareersApiError, and carries the request id', async () => {
    const stranger = createCareersClient({ baseUrl: api.baseUrl, apiKey: 'ck_test_nobody_has_this_key_000' });
    const error = (await stranger.get('/vacancies').catch((e: unknown) => e)) as CareersApiError;
    expect([error.status, error.body]).toEqual([401, { message: 'Unauthenticated.' }]);
    expect(error.requestId).toMatch(/.+/);
  });

  it('reports a rate limit as a 429 CareersApiError with Retry-After', async () => {
    const limited = createCareersClient({ baseUrl: api.baseUrl, apiKey: LIMITED });
    const candidate = { given_name: 'Ada', family_name: 'Lovelace', email: 'not an email' };
    // The limit (10 a minute per key) is checked before validation: invalid requests count too, and store nothing.
    const answers: CareersApiError[] = [];
    for (let i = 0; i < 11; i++) {
      answers.push(
        (await limited
          .post('/applications', { body: { vacancy: 'job-4', candidate } })
          .catch((e: unknown) => e)) as CareersApiError,
      );
    }
    expect(answers.slice(0, 10).map((e) => e.status)).toEqual(Array(10).fill(422));
    const error = answers[10] as CareersApiError;
    expect(error).toBeInstanceOf(CareersApiError);
    expect([error.status, error.body]).toEqual([429, { message: 'Too Many Attempts.' }]);
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error.retryAfter).toBeLessThanOrEqual(60);
  });

  it('introspects a publishable key with /me, and reports it used from another origin as ORIGIN_NOT_ALLOWED', async () => {
    const [tenant] = await rows(`select id from tenants where slug = 'globex'`, []);
    const { plaintext } = await createApiKey(serviceContext(api.services.orm.em.fork(), tenant!.id), {
      name: 'Career website',
      kind: 'publishable',
      scopes: ['vacancies:read'],
      origins: ['https://careers.globex.example'],
    });
    const withOrigin = (origin: string) =>
      createCareersClient({
        baseUrl: api.baseUrl,
        apiKey: plaintext,
        // Node's fetch sends no Origin of its own; a browser would.
        fetch: (request) => {
          const headers = new Headers(request.headers);
          headers.set('origin', origin);
          return fetch(new Request(request, { headers }));
        },
      });
    const me = await withOrigin('https://careers.globex.example').get('/me');
    expect(me.data).toMatchObject({
      tenant: 'globex',
      key: {
        kind: 'publishable',
        prefix: plaintext.slice(0, 12),
        scopes: ['vacancies:read'],
        origins: ['https://careers.globex.example'],
      },
    });
    const { meta } = await withOrigin('https://careers.globex.example').get('/vacancies');
    expect(meta.total).toBe(careerVacancies().filter((v) => v.status === 'published').length);
    const error = (await withOrigin('https://evil.example')
      .get('/vacancies')
      .catch((e: unknown) => e)) as CareersApiError;
    expect([error.status, error.code, error.message]).toEqual([
      403,
      'ORIGIN_NOT_ALLOWED',
      'This origin is not allowed for this key.',
    ]);
  });

  it('types the error codes and bodies from the document (checked by tsc)', () => {
    expectTypeOf<
      'VACANCY_CLOSED' | 'VACANCY_NOT_FOUND' | 'ORIGIN_NOT_ALLOWED' | 'CURSOR_EXPIRED'
    >().toExtend<TErrorCode>();
    expectTypeOf<'NOT_A_CODE'>().not.toExtend<TErrorCode>();
    expectTypeOf<{ message: 'This vacancy no longer accepts applications.'; error: 'VACANCY_CLOSED' }>().toExtend<
      TErrorOf<'/applications', 'post'>
    >();
    expectTypeOf<{ message: 'This vacancy no longer accepts applications.'; error: 'VACANCY_CLOSED' }>().not.toExtend<
      TErrorOf<'/vacancies', 'get'>
    >();
  });
});
