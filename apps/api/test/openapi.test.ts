import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { listProcedures } from '@careers/core';
import { createTestDatabase } from '@careers/core/testing';
import { buildOpenApiDocument } from '../src/openapi.ts';
import {
  DocumentValidator,
  startTestApi,
  UndocumentedResponseError,
  type TResponse,
  type TTestApi,
} from './support/api.ts';
import { seed } from './support/seed.ts';

type TJson = Record<string, any>;

const KEY = 'ck_test_openapi_full_access_0001';
const NOW = Date.now();
const ago = (days: number) => new Date(NOW - days * 86_400_000).toISOString();

let api: TTestApi;
let document: TJson;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      {
        slug: 'openapi-co',
        name: 'OpenAPI Co',
        default_language: 'en',
        career_site: { domain: 'careers.openapi.example', url_pattern: null },
        api_keys: [{ id: 1, name: 'all', key: KEY, scopes: ['*'] }],
        users: [{ id: 3, name: 'Una User', email: 'una@openapi.example', role: 'recruiter', password: null }],
        locations: [{ id: 4, slug: 'hq', name: 'HQ', country_code: 'NL', created_at: ago(9) }],
        vacancies: [
          {
            id: 5,
            slug: 'engineer',
            title: 'Engineer',
            language: 'en',
            status: 'published',
            channels: ['api'],
            published_at: ago(2),
            location_id: 4,
          },
        ],
        team_members: [{ id: 6, given_name: 'Tea', family_name: 'Member', email: 'tea@openapi.example' }],
        articles: [
          {
            id: 7,
            slug: 'hello',
            type: 'news',
            status: 'published',
            published_at: ago(1),
            translations: { en: { title: 'Hello', body_html: '<p>Hello world</p>' } },
          },
        ],
        candidates: [
          {
            id: 8,
            slug: 'cand',
            user_id: 3,
            first_name: 'Cee',
            last_name: 'Dee',
            email: 'c@openapi.example',
            status: 'potential',
          },
        ],
      },
    ],
  });
  api = await startTestApi(databaseUrl);
  document = (await api.get('/openapi.json')).body as TJson;
});
afterAll(async () => api?.close());

const API_OPERATIONS = () =>
  Object.entries(document.paths as TJson).flatMap(([path, item]) =>
    Object.entries(item as TJson)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as TJson })),
  );
const metaOf = (method: string, path: string) =>
  listProcedures().find(
    ({ meta }) => meta?.openapi && meta.openapi.method.toLowerCase() === method && meta.openapi.path === path,
  )?.meta;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('documents every REST procedure, and every operation fully', () => {
    const procedures = listProcedures().filter(({ meta }) => meta?.openapi);
    for (const { meta } of procedures) {
      expect(
        document.paths[meta!.openapi!.path]?.[meta!.openapi!.method.toLowerCase()],
        meta!.openapi!.path,
      ).toBeDefined();
    }
    const tagNames = (document.tags as TJson[]).map((tag) => tag.name);
    const operationIds = new Set<string>();
    for (const { path, method, operation } of API_OPERATIONS()) {
      const where = `${method} ${path}`;
      expect(operation.operationId, where).toMatch(/^[\w-]+$/);
      expect(operationIds.has(operation.operationId), `${where}: duplicate operationId`).toBe(false);
      operationIds.add(operation.operationId);
      expect(operation.summary, where).toBeTruthy();
      expect(operation.description, where).toMatch(/Required scope: /);
      expect(operation.tags.length, where).toBeGreaterThan(0);
      for (const tag of operation.tags) expect(tagNames, where).toContain(tag);
      const meta = metaOf(method, path);
      if (!meta) {
        // The operations endpoints: no key, marked as extensions.
        expect(operation.security, where).toEqual([]);
        expect(operation['x-extension'], where).toBe(true);
        continue;
      }
      // Publishable keys (career sites in the browser) reach what needs no scope or a public one, never candidates.
      const publicScopes = ['vacancies:read', 'locations:read', 'team:read', 'articles:read', 'applications:write'];
      const publishable = !meta.scope || publicScopes.includes(meta.scope);
      expect(operation.security, where).toEqual(
        publishable ? [{ bearerAuth: [] }, { publishableKey: [] }] : [{ bearerAuth: [] }],
      );
      expect(operation['x-required-scope'], where).toBe(meta.scope ?? undefined);
      if (meta.scope) expect(operation.description, where).toContain(`Required scope: \`${meta.scope}\``);
      const statuses = Object.keys(operation.responses);
      expect(statuses, where).toContain(String(meta.successStatus ?? 200));
      // Only a dry run (`validate_only`) answers 200 besides another success status.
      const dryRun = (meta.queryParameters ?? []).includes('validate_only');
      if (!dryRun)
        expect(statuses, where).not.toContain(meta.successStatus && meta.successStatus !== 200 ? '200' : '201');
      else expect(statuses, where).toContain('200');
      for (const status of ['401', '403', '500', '503']) expect(statuses, `${where} ${status}`).toContain(status);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path') expect(parameter.required, `${where} ${parameter.name}`).toBe(true);
        if (parameter.in === 'query' && parameter.schema.type === 'array')
          expect(parameter.name, where).toMatch(/\[\]$/);
        if (parameter.in === 'path' && parameter.name === 'id') expect(parameter.schema.type).toBe('integer');
      }
      if (path.includes('{')) expect(statuses, `${where} 404`).toContain('404');
      if (method === 'get') {
        expect(operation.responses['304']['x-extension'], where).toBe(true);
        expect(operation.responses['200'].headers.ETag.required, where).toBe(true);
      }
      if (method === 'post') {
        expect(statuses, where).toEqual(expect.arrayContaining(['400', '413', '422']));
        const idempotencyKey = operation.parameters.find((parameter: TJson) => parameter.name === 'Idempotency-Key');
        expect(idempotencyKey?.['x-extension'], where).toBe(true);
      }
      // CORS headers (publishable keys) may come with every answer but a 401 (an unknown key allows no origin).
      for (const [status, response] of Object.entries(operation.responses as TJson)) {
        expect(Boolean(response.headers?.['Access-Control-Allow-Origin']), `${where} ${status}`).toBe(status !== '401');
      }
      if (meta.rateLimit) {
        expect(Object.keys(operation.responses['429'].headers), where).toEqual(
          expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
        expect(
          operation.responses[String(meta.successStatus ?? 200)].headers['X-RateLimit-Remaining'].required,
          where,
        ).toBe(true);
      } else if (meta.expensiveRead) {
        // Shed reads say when to retry, and carry no rate-limit headers (there is no window to report).
        const cors = (name: string) => name.startsWith('Access-Control-') || name === 'Vary';
        expect(
          Object.keys(operation.responses['429'].headers)
            .filter((name) => !cors(name))
            .sort(),
          where,
        ).toEqual(['Retry-After', 'X-Request-Id']);
      } else {
        expect(statuses, where).not.toContain('429');
      }
    }
  });

  it('marks the extensions and documents the operations endpoints without security', () => {
    for (const path of ['/candidates/{id}', '/candidates/processing/{processing_id}']) {
      expect(document.paths[path].get['x-extension']).toBe(true);
      expect(document.paths[path].get.description).toMatch(/extension/);
    }
    for (const path of ['/openapi.json', '/docs', '/livez', '/readyz']) {
      expect(document.paths[path].get.security).toEqual([]);
      expect(document.paths[path].get['x-extension']).toBe(true);
    }
    expect(document.paths['/readyz'].get.responses['503']).toBeDefined();
    // Metrics are served on METRICS_PORT, not on the public port.
    expect(document.paths['/metrics']).toBeUndefined();
  });

  it('documents the structured data of a vacancy, a schema.org JobPosting behind include_structured_data', () => {
    const operation = document.paths['/vacancies/{slug}'].get;
    expect(
      (operation.parameters as TJson[]).find((parameter) => parameter.name === 'include_structured_data')?.schema,
    ).toMatchObject({ type: 'boolean', default: false });
    const data = operation.responses['200'].content['application/json'].schema.properties.data;
    expect(data.required).not.toContain('structured_data');
    const posting = data.properties.structured_data;
    expect(posting.properties['@type']).toEqual({ type: 'string', const: 'JobPosting' });
    expect(Object.keys(posting.properties)).toEqual([
      '@context',
      '@type',
      'title',
      'description',
      'datePosted',
      'validThrough',
      'employmentType',
      'hiringOrganization',
      'jobLocation',
      'jobLocationType',
      'applicantLocationRequirements',
      'baseSalary',
      'identifier',
      'directApply',
      'url',
    ]);
    expect(posting.required).toEqual([
      '@context',
      '@type',
      'title',
      'datePosted',
      'hiringOrganization',
      'identifier',
      'directApply',
    ]);
    expect(posting.properties.baseSalary.properties.value.properties.unitText.enum).toEqual([
      'HOUR',
      'DAY',
      'WEEK',
      'MONTH',
      'YEAR',
    ]);
    expect(posting.additionalProperties).toBe(false);
  });

  it('names the business-rule errors of POST /applications and POST /candidates', () => {
    const applications = document.paths['/applications'].post.responses;
    const oneOf = (response: TJson) =>
      (response.content['application/json'].schema.oneOf ?? [response.content['application/json'].schema]).map(
        (s: TJson) => s.$ref,
      );
    expect(oneOf(applications['400'])).toEqual([
      '#/components/schemas/MalformedJsonError',
      '#/components/schemas/VacancyClosedError',
    ]);
    expect(oneOf(applications['404'])).toEqual(['#/components/schemas/VacancyNotFoundError']);
    expect(oneOf(document.paths['/candidates'].post.responses['500'])).toContain(
      '#/components/schemas/ProcessingFailedError',
    );
    expect(document.components.schemas.VacancyClosedError.example).toEqual({
      message: 'This vacancy no longer accepts applications.',
      error: 'VACANCY_CLOSED',
    });
  });

  it('is the document the app serves', () => {
    expect(document).toEqual(buildOpenApiDocument());
  });
});

/** A request that succeeds for each GET operation of the seeded tenant, with its path filled in. */
const BASE_REQUESTS: Record<string, { path: string; query?: Record<string, string> }> = {
  '/health': { path: '/health' },
  '/vacancies': { path: '/vacancies' },
  '/vacancies/facets': { path: '/vacancies/facets' },
  '/vacancies/suggest': { path: '/vacancies/suggest' },
  '/vacancies/{slug}': { path: '/vacancies/engineer' },
  '/locations': { path: '/locations' },
  '/locations/{slug}': { path: '/locations/hq' },
  '/team': { path: '/team' },
  '/team/{id}': { path: '/team/6' },
  '/articles': { path: '/articles' },
  '/articles/{slug}': { path: '/articles/hello' },
  '/candidates': { path: '/candidates', query: { user_id: '3' } },
  '/candidates/{id}': { path: '/candidates/8' },
};

function get(
  base: { path: string; query?: Record<string, string> },
  extra: Record<string, string>,
): Promise<TResponse> {
  const query = new URLSearchParams({ ...base.query, ...extra }).toString();
  return api.get(`${base.path}${query ? `?${query}` : ''}`, KEY);
}

describe('query parameters behave as documented', () => {
  /** Values valid only beside another parameter (documented with the value), sent with it. */
  const COMPANIONS: Record<string, Record<string, string>> = {
    'sort=relevance': { q: 'engineer' },
    'sort=distance': { near: '52.37,4.9' },
  };

  it('accepts every documented boundary and enum value, and rejects the values just outside', async () => {
    let checked = 0;
    for (const { path, method, operation } of API_OPERATIONS()) {
      const base = BASE_REQUESTS[path];
      if (method !== 'get' || !base) continue;
      for (const parameter of (operation.parameters ?? []) as TJson[]) {
        if (parameter.in !== 'query') continue;
        const { name, schema } = parameter as { name: string; schema: TJson };
        const field = name.replace(/\[\]$/, '');
        const accepted: string[] = [];
        const rejected: string[] = [];
        if (schema.type === 'boolean') {
          accepted.push('true', 'false', '1', '0');
          rejected.push('yes', '');
        } else if (Array.isArray(schema.enum)) {
          accepted.push(...schema.enum);
          rejected.push(
            `${schema.enum[0]}x`,
            String(schema.enum[0]).toUpperCase() === schema.enum[0] ? 'x' : String(schema.enum[0]).toUpperCase(),
          );
        } else if (schema.type === 'integer' && schema.default !== undefined) {
          accepted.push(String(schema.minimum), String(schema.maximum));
          rejected.push(String(schema.minimum - 1), String(schema.maximum + 1), '1.5', 'abc');
        } else if (schema.type === 'string' && schema.maxLength !== undefined && schema.pattern === undefined) {
          accepted.push('a'.repeat(schema.maxLength));
          rejected.push('a'.repeat(schema.maxLength + 1));
        } else if (schema.type === 'string' && schema.pattern === '^[A-Za-z]{2}$') {
          accepted.push('en', 'EN');
          rejected.push('e1', 'eng', 'e');
        }
        for (const value of accepted) {
          const response = await get(base, { ...COMPANIONS[`${field}=${value}`], [name]: value });
          expect(response.status, `${path}?${name}=${value}: ${response.text}`).toBe(200);
          checked++;
        }
        for (const value of rejected) {
          const response = await get(base, { [name]: value });
          expect(response.status, `${path}?${name}=${value}`).toBe(422);
          expect(Object.keys(response.body.errors), `${path}?${name}=${value}`).toContain(field);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  it('a required query parameter is required', async () => {
    const response = await api.get('/candidates', KEY);
    expect(response.status).toBe(422);
    expect(response.body.errors.user_id).toEqual(['The user id field is required.']);
  });
});

describe('the response checker of the test helpers', () => {
  let validator: DocumentValidator;
  beforeAll(() => {
    validator = new DocumentValidator(buildOpenApiDocument());
  });
  const response = (status: number, body: unknown, headers: Record<string, string> = {}): TResponse => ({
    status,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1', ...headers }),
    body,
    text: body === undefined ? '' : JSON.stringify(body),
  });
  const emptyPage = (first: string) => ({
    data: [],
    meta: { current_page: 1, per_page: 20, total: 0, last_page: 1, from: null, to: null, path: 'http://h/v1/team' },
    links: { first, last: 'http://h/v1/team?page=1', prev: null, next: null },
  });
  const check = (method: string, path: string, answer: TResponse) => () =>
    validator.check(method, `http://h${path}`, answer);
  const LIMITED = {
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '0',
    'retry-after': '30',
    'x-ratelimit-reset': '1700000000',
  };

  it('accepts documented answers', () => {
    expect(
      check('GET', '/v1/health', response(200, { status: 'authenticated', tenant: 'a' }, { etag: 'W/"x"' })),
    ).not.toThrow();
    expect(
      check('GET', '/v1/team?page=2', response(200, emptyPage('http://h/v1/team?page=1'), { etag: 'W/"x"' })),
    ).not.toThrow();
    expect(check('GET', '/v1/team/', response(304, undefined, { etag: 'W/"x"' }))).not.toThrow();
    expect(check('POST', '/v1/applications', response(429, { message: 'Too Many Attempts.' }, LIMITED))).not.toThrow();
    expect(check('GET', '/v1/nope', response(404, { message: 'Resource not found.' }))).not.toThrow();
    expect(
      check('POST', '/v1/health', response(405, { message: 'Method not allowed.' }, { allow: 'GET, HEAD' })),
    ).not.toThrow();
  });

  it('rejects an undocumented status, a body off its schema and a missing or invalid header', () => {
    const cases: Array<[string, () => void, RegExp]> = [
      [
        '422 on /health',
        check('GET', '/v1/health', response(422, { message: 'The given data was invalid.', errors: { a: ['b'] } })),
        /does not document/,
      ],
      ['no ETag', check('GET', '/v1/health', response(200, { status: 'authenticated', tenant: 'a' })), /ETag/],
      [
        'wrong const',
        check('GET', '/v1/health', response(200, { status: 'ok', tenant: 'a' }, { etag: 'W/"x"' })),
        /schema/,
      ],
      [
        'extra key',
        check('GET', '/v1/health', response(200, { status: 'authenticated', tenant: 'a', x: 1 }, { etag: 'W/"x"' })),
        /schema/,
      ],
      [
        'relative link',
        check('GET', '/v1/team', response(200, emptyPage('/v1/team?page=1'), { etag: 'W/"x"' })),
        /uri/,
      ],
      [
        'negative remaining',
        check(
          'POST',
          '/v1/applications',
          response(429, { message: 'Too Many Attempts.' }, { ...LIMITED, 'x-ratelimit-remaining': '-1' }),
        ),
        /Remaining/,
      ],
      [
        'no Retry-After',
        check(
          'POST',
          '/v1/applications',
          response(429, { message: 'Too Many Attempts.' }, { ...LIMITED, 'retry-after': '' }),
        ),
        /Retry-After/,
      ],
      [
        'other scope',
        check(
          'GET',
          '/v1/team',
          response(403, {
            message: 'This API key does not have the required scope: vacancies:read.',
            error: 'INSUFFICIENT_SCOPE',
            required_scope: 'vacancies:read',
          }),
        ),
        /schema/,
      ],
      ['unknown path 200', check('GET', '/v1/nope', response(200, {})), /only allows 404/],
      ['405 without Allow', check('POST', '/v1/health', response(405, { message: 'Method not allowed.' })), /Allow/],
      ['body on 304', check('GET', '/v1/team', response(304, { a: 1 }, { etag: 'W/"x"' })), /no body/],
      ['stack trace', check('GET', '/v1/team', response(500, { message: 'Server Error.', stack: 'at x' })), /schema/],
      [
        'html error',
        check('GET', '/v1/team', {
          ...response(500, undefined),
          headers: new Headers({ 'content-type': 'text/html', 'x-request-id': 'r' }),
          text: '<h1>x</h1>',
        }),
        /content type/,
      ],
    ];
    for (const [name, run, message] of cases) {
      expect(run, name).toThrow(UndocumentedResponseError);
      expect(run, name).toThrow(message);
    }
  });
});
