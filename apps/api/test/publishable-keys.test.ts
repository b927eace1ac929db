import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '@careers/core';
import { createTestDatabase } from '@careers/core/testing/database.ts';
import { createApiKey } from '@careers/core/modules/api-keys/api-key.service.ts';
import { startTestApi, type TResponse, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import { applicationBody, randomKey, suffix, tenant, vacancy } from './support/write-fixtures.ts';

type MikroORM = Awaited<ReturnType<typeof openOrm>>;

let api: TTestApi;
let orm: MikroORM;
const s = suffix();
const SLUG = `pk-${s}`;
const VACANCY = `job-${s}`;
const SITE = 'https://careers.acme.example';
const OTHER_SITE = 'https://evil.example';
const SECRET = randomKey();
let publishable: string;
let publishableDisabled: string;
let tenantId: number;

const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, X-Request-Id';
const ORIGIN_NOT_ALLOWED = { message: 'This origin is not allowed for this key.', error: 'ORIGIN_NOT_ALLOWED' };

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      tenant(SLUG, {
        api_keys: [{ id: 1, name: 'server', key: SECRET, scopes: ['vacancies:read', 'applications:write', 'candidates:read'], revoked: false }],
        vacancies: [vacancy(1, VACANCY)],
      }),
      tenant(`off-${s}`, { api_enabled: false, api_keys: [] }),
    ],
  });
  orm = await openOrm(databaseUrl);
  const ids = await orm.em.fork().execute<{ id: number; slug: string }[]>('select id, slug from tenants');
  tenantId = ids.find((row) => row.slug === SLUG)!.id;
  const created = await createApiKey(orm.em.fork(), {
    tenantId,
    name: 'Career website',
    kind: 'publishable',
    scopes: ['vacancies:read', 'applications:write'],
    origins: [`${SITE.toUpperCase()}/`, 'http://localhost:5173'],
  });
  publishable = created.plaintext;
  const disabled = await createApiKey(orm.em.fork(), {
    tenantId: ids.find((row) => row.slug === `off-${s}`)!.id,
    name: 'site of a tenant without API access',
    kind: 'publishable',
    scopes: ['vacancies:read'],
    origins: [SITE],
  });
  publishableDisabled = disabled.plaintext;
  api = await startTestApi(databaseUrl);
});
afterAll(async () => {
  await api?.close();
  await orm?.close();
});

const CORS_HEADERS = ['access-control-allow-origin', 'access-control-expose-headers', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age'];
function corsOf(response: TResponse | Response): Record<string, string | null> {
  return Object.fromEntries([...CORS_HEADERS, 'vary'].map((name) => [name, response.headers.get(name)]));
}
function expectActualCors(response: TResponse, origin: string) {
  expect(response.headers.get('access-control-allow-origin')).toBe(origin);
  expect(response.headers.get('vary')).toBe('Origin');
  expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED);
  expect(response.headers.get('access-control-allow-credentials')).toBeNull();
}
function expectNoCors(response: TResponse | Response) {
  for (const name of CORS_HEADERS) expect(response.headers.get(name), name).toBeNull();
}

describe('creating publishable keys', () => {
  it('stores the kind and the normalised origins, and hands out a pk_live_ key', async () => {
    expect(publishable).toMatch(/^pk_live_[A-Za-z0-9_-]{32}$/);
    const rows = await orm.em.fork().execute('select kind, origins, start from api_keys where tenant_id = ? order by id', [tenantId]);
    expect(rows.map((row) => [row.kind, row.origins])).toEqual([
      ['secret', null],
      ['publishable', [SITE, 'http://localhost:5173']],
    ]);
  });

  it.each([
    ['a candidates scope', { scopes: ['vacancies:read', 'candidates:read'], origins: [SITE] }, 'scopes.1'],
    ['candidates:write', { scopes: ['candidates:write'], origins: [SITE] }, 'scopes.0'],
    ['vacancies:write', { scopes: ['vacancies:write'], origins: [SITE] }, 'scopes.0'],
    ['legacy full access', { scopes: ['*'], origins: [SITE] }, 'scopes.0'],
    ['no origins', { scopes: ['vacancies:read'], origins: [] }, 'origins'],
    ['an origin with a path', { scopes: ['vacancies:read'], origins: [SITE, 'https://a.example/jobs'] }, 'origins.1'],
    ['a wildcard origin', { scopes: ['vacancies:read'], origins: ['https://*.example.com'] }, 'origins.0'],
    ['another scheme', { scopes: ['vacancies:read'], origins: ['ftp://a.example'] }, 'origins.0'],
    ['not an origin', { scopes: ['vacancies:read'], origins: ['careers.example.com'] }, 'origins.0'],
    ['credentials', { scopes: ['vacancies:read'], origins: ['https://user:pw@a.example'] }, 'origins.0'],
    ['a query', { scopes: ['vacancies:read'], origins: ['https://a.example?x=1'] }, 'origins.0'],
    ['*', { scopes: ['vacancies:read'], origins: ['*'] }, 'origins.0'],
  ])('refuses %s', async (_case, input, field) => {
    const before = await orm.em.fork().execute('select count(*)::int as n from api_keys');
    const error = await createApiKey(orm.em.fork(), { tenantId, name: 'bad', kind: 'publishable', ...input }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(Object.keys((error as { fieldErrors: object }).fieldErrors)).toContain(field);
    expect(await orm.em.fork().execute('select count(*)::int as n from api_keys')).toEqual(before);
  });

  it('refuses origins on a secret key', async () => {
    await expect(createApiKey(orm.em.fork(), { tenantId, name: 'bad', scopes: ['vacancies:read'], origins: [SITE] })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { origins: ['Only a publishable key has allowed origins.'] },
    });
  });
});

describe('CORS preflight', () => {
  it.each(['/vacancies', `/vacancies/${VACANCY}`, '/applications', '/me', '/no-such-path'])('answers OPTIONS %s with 204 for any origin', async (path) => {
    for (const origin of [SITE, OTHER_SITE]) {
      const response = await fetch(api.baseUrl + path, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      expect(corsOf(response)).toEqual({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
        'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key',
        'access-control-max-age': '600',
        'access-control-expose-headers': null,
        vary: 'Origin',
      });
    }
  });

  it('never answers * (not even for the literal origin "null")', async () => {
    const response = await fetch(`${api.baseUrl}/vacancies`, { method: 'OPTIONS', headers: { origin: 'null', 'access-control-request-method': 'GET' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('null');
  });
});

describe('actual requests with a publishable key', () => {
  it('from an allowed origin: answered with the CORS headers', async () => {
    const response = await api.get('/vacancies', publishable, { origin: SITE });
    expect(response.status).toBe(200);
    expect(response.body.data.map((v: { slug: string }) => v.slug)).toEqual([VACANCY]);
    expectActualCors(response, SITE);
    // The origin as the browser sends it, matched case-insensitively but echoed as sent.
    const local = await api.get(`/vacancies/${VACANCY}`, publishable, { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expectActualCors(local, 'http://localhost:5173');
  });

  it('from an allowed origin: the errors carry the CORS headers too', async () => {
    const notFound = await api.get('/vacancies/no-such-vacancy', publishable, { origin: SITE });
    expect(notFound.status).toBe(404);
    expectActualCors(notFound, SITE);
    const scope = await api.get('/team', publishable, { origin: SITE });
    expect(scope.status).toBe(403);
    expect(scope.body.error).toBe('INSUFFICIENT_SCOPE');
    expectActualCors(scope, SITE);
    const invalid = await api.post('/applications', { vacancy: VACANCY }, publishable, { origin: SITE });
    expect(invalid.status).toBe(422);
    expectActualCors(invalid, SITE);
    expect(invalid.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const candidates = await api.get('/candidates?user_id=1', publishable, { origin: SITE });
    expect(candidates.status).toBe(403);
    expectActualCors(candidates, SITE);
  });

  it('from an allowed origin of a tenant without API access: 403 that the browser can read', async () => {
    const response = await api.get('/vacancies', publishableDisabled, { origin: SITE });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'API access is not enabled for this tenant.' });
    expectActualCors(response, SITE);
  });

  it('from another origin: 403 ORIGIN_NOT_ALLOWED without CORS headers', async () => {
    for (const origin of [OTHER_SITE, `${SITE}:8443`, 'http://careers.acme.example', 'null']) {
      const response = await api.get('/vacancies', publishable, { origin });
      expect(response.status, origin).toBe(403);
      expect(response.body).toEqual(ORIGIN_NOT_ALLOWED);
      expectNoCors(response);
    }
    const write = await api.post('/applications', applicationBody(VACANCY), publishable, { origin: OTHER_SITE });
    expect(write.status).toBe(403);
    expect(write.body).toEqual(ORIGIN_NOT_ALLOWED);
  });

  it('without an Origin header: 403 ORIGIN_NOT_ALLOWED', async () => {
    const response = await api.get('/vacancies', publishable);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(ORIGIN_NOT_ALLOWED);
    expectNoCors(response);
  });

  it('an unknown or revoked key with an Origin: 401 without CORS headers (nothing says which origins it allows)', async () => {
    const response = await api.get('/vacancies', 'pk_live_unknownunknownunknownunknown12', { origin: SITE });
    expect(response.status).toBe(401);
    expectNoCors(response);
  });
});

describe('secret keys', () => {
  it('never get CORS headers, whatever the origin, on success and on errors', async () => {
    for (const path of ['/vacancies', '/vacancies/no-such-vacancy', '/team']) {
      const response = await api.get(path, SECRET, { origin: SITE });
      expect([200, 403, 404]).toContain(response.status);
      expectNoCors(response);
      expect(response.headers.get('vary')).toBeNull();
    }
  });
});
