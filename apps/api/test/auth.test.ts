import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import SwaggerParser from '@apidevtools/swagger-parser';
import { freePort, openOrm } from '@careers/core';
import { createTestDatabase } from '@careers/core/testing';
import { ownerTenant, revokeApiKey, serviceContext } from '@careers/core/operations';
import { startTestApi, validatedFetch, type TTestApi } from './support/api.ts';
import { seed, tenantWithKeys } from './support/seed.ts';

const FULL = 'ck_test_full_access_key_0001';
const LEGACY = 'ck_test_legacy_star_key_0002';
const NO_SCOPES = 'ck_test_no_scopes_key_00003';
const REVOKED = 'ck_test_revoked_key_0000004';
const TEAM_ONLY = 'ck_test_team_only_key_00005';
const OTHER = 'ck_test_other_tenant_key_006';
const DISABLED = 'ck_test_disabled_tenant_007';
const TO_REVOKE = 'ck_test_revoke_me_later_0008';
const ALL_SCOPES = [
  'vacancies:read',
  'vacancies:write',
  'applications:write',
  'candidates:read',
  'candidates:write',
  'team:read',
  'locations:read',
  'articles:read',
];

let api: TTestApi;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      tenantWithKeys('acme', [
        { id: 1, key: FULL, scopes: ALL_SCOPES },
        { id: 2, key: LEGACY, scopes: ['*'] },
        { id: 3, key: NO_SCOPES, scopes: [] },
        { id: 4, key: REVOKED, scopes: ALL_SCOPES, revoked: true },
        { id: 5, key: TEAM_ONLY, scopes: ['team:read'] },
        { id: 8, key: TO_REVOKE, scopes: ['vacancies:read'] },
      ]),
      tenantWithKeys('globex', [{ id: 6, key: OTHER, scopes: ALL_SCOPES }]),
      tenantWithKeys('initech', [{ id: 7, key: DISABLED, scopes: ALL_SCOPES }], { api_enabled: false }),
    ],
  });
  api = await startTestApi(databaseUrl);
});
afterAll(async () => api?.close());

const UNAUTHENTICATED = { message: 'Unauthenticated.' };

describe('authentication', () => {
  it.each([
    ['missing header', {}],
    ['wrong scheme', { authorization: `Basic ${FULL}` }],
    ['scheme without token', { authorization: 'Bearer' }],
    ['two tokens', { authorization: `Bearer ${FULL} extra` }],
    ['unknown key', { authorization: 'Bearer ck_live_this_key_does_not_exist' }],
    ['revoked key', { authorization: `Bearer ${REVOKED}` }],
    ['key with a different case', { authorization: `Bearer ${FULL.toUpperCase()}` }],
  ])('%s → 401 with the same body', async (_name, headers) => {
    for (const path of ['/health', '/vacancies', '/team']) {
      const response = await api.get(path, undefined, headers as Record<string, string>);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
    }
  });

  it('accepts the scheme word in any case', async () => {
    const response = await api.get('/health', undefined, { authorization: `bEaReR ${FULL}` });
    expect(response.status).toBe(200);
  });

  it('health answers the tenant of each key, flat', async () => {
    expect((await api.get('/health', FULL)).body).toEqual({ status: 'authenticated', tenant: 'acme' });
    expect((await api.get('/health', OTHER)).body).toEqual({ status: 'authenticated', tenant: 'globex' });
    expect((await api.get('/health', NO_SCOPES)).body).toEqual({ status: 'authenticated', tenant: 'acme' });
  });

  it('a tenant with API access switched off gets 403 everywhere, /health included', async () => {
    for (const path of ['/health', '/vacancies', '/team']) {
      const response = await api.get(path, DISABLED);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'API access is not enabled for this tenant.' });
    }
  });
});

describe('scopes', () => {
  it('a key without the scope gets 403 with the scope named', async () => {
    const response = await api.get('/team', NO_SCOPES);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      message: 'This API key does not have the required scope: team:read.',
      error: 'INSUFFICIENT_SCOPE',
      required_scope: 'team:read',
    });
    const vacancies = await api.get('/vacancies', TEAM_ONLY);
    expect(vacancies.status).toBe(403);
    expect(vacancies.body.required_scope).toBe('vacancies:read');
  });

  it('scope is checked before validation', async () => {
    const response = await api.get('/team?per_page=1000', NO_SCOPES);
    expect(response.status).toBe(403);
  });

  it('a legacy * key has every scope', async () => {
    for (const path of ['/team', '/vacancies', '/locations', '/articles']) {
      expect((await api.get(path, LEGACY)).status).toBe(200);
    }
  });

  it('a scoped key reaches what its scope grants', async () => {
    expect((await api.get('/team', TEAM_ONLY)).status).toBe(200);
  });
});

describe('request errors', () => {
  it('unknown paths are 404 even without a key', async () => {
    for (const path of ['/nope', '/vacancies/a/b/c', '/../etc/passwd']) {
      const response = await api.get(path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Resource not found.' });
    }
    const outside = await validatedFetch(api.baseUrl.replace('/v1', '/v2/health'));
    expect(outside.status).toBe(404);
  });

  it('a known path with the wrong method is 405 with Allow', async () => {
    const response = await api.post('/health', {}, FULL);
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ message: 'Method not allowed.' });
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('malformed JSON is 400 after authentication', async () => {
    const unauthenticated = await api.post('/applications', '{"vacancy":', undefined);
    expect(unauthenticated.status).toBe(401);
    const response = await api.post('/applications', '{"vacancy":', FULL);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Malformed JSON body.' });
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('a body over 40 MiB is 413', async () => {
    const huge = `{"vacancy":"${'a'.repeat(40 * 1024 * 1024 + 10)}"}`;
    const response = await api.post('/applications', huge, FULL);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: 'Payload too large.' });
  });

  it('a JSON body that is not an object is 422 on body', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) {
      const response = await api.post('/applications', body, FULL);
      expect(response.status).toBe(422);
      expect(response.body.message).toBe('The given data was invalid.');
      expect(Object.keys(response.body.errors)).toEqual(['body']);
    }
  });

  it('validation errors use dotted paths for arrays and nested bodies', async () => {
    const list = await api.get('/vacancies?per_page=101&job_types[]=1&job_types[]=x&language=eng', FULL);
    expect(list.status).toBe(422);
    expect(list.body.errors.per_page).toEqual(['The per page must not be greater than 100.']);
    expect(list.body.errors['job_types.1']).toBeDefined();
    expect(list.body.errors.language).toEqual(['The language must be 2 characters.']);
    const nested = await api.post(
      '/applications',
      { vacancy: 1, candidate: { given_name: 'A', family_name: 'B' } },
      FULL,
    );
    expect(nested.status).toBe(422);
    expect(nested.body.errors['candidate.email']).toEqual(['The candidate.email field is required.']);
  });

  it('every answer carries a request id, and a valid incoming one is kept', async () => {
    const generated = await api.get('/health', FULL);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await api.get('/health', FULL, { 'x-request-id': 'trace-abc.123' });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc.123');
    const replaced = await api.get('/health', FULL, { 'x-request-id': 'bad id with spaces' });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });
});

describe('operations endpoints', () => {
  it('serves a valid OpenAPI 3.1 document without a key', async () => {
    const response = await api.get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\.1\./);
    await expect(SwaggerParser.validate(structuredClone(response.body))).resolves.toBeDefined();
    expect(Object.keys(response.body.paths)).toContain('/health');
  });

  it('serves a browsable reference at /docs', async () => {
    const response = await validatedFetch(`${api.baseUrl}/docs/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger');
  });

  it('livez and readyz need no key', async () => {
    expect((await api.get('/livez')).status).toBe(200);
    expect((await api.get('/readyz')).body).toEqual({ status: 'ok' });
  });
});

describe('revocation across processes', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('a revoked key gets 401 from a second API process within 1 second', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [fileURLToPath(new URL('../src/main.ts', import.meta.url))], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const other = `http://127.0.0.1:${port}/v1`;
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`${other}/livez`)).ok) break;
      } catch {
        await sleep(100);
      }
    }
    const call = () => validatedFetch(`${other}/health`, { headers: { authorization: `Bearer ${TO_REVOKE}` } });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200); // now cached in that process
    const orm = await openOrm(databaseUrl);
    await revokeApiKey(serviceContext(orm.em.fork(), (await ownerTenant(orm.em.fork(), 'api_keys', 8))!), { id: 8 });
    await orm.close();
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 3000) {
      status = (await call()).status;
      if (status === 200) await sleep(25);
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(1000);
  });
});
