import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '@careers/core';
import { createTestDatabase } from '@careers/core/testing';
import { createApiKey, serviceContext } from '@careers/core/operations';
import { fetchCheckedFrom, startTestApi, validatedFetch, type TResponse, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import { startApiProcess, type TApiProcess } from './support/processes.ts';
import { applicationBody, query, randomKey, rateHeaders, suffix, tenant, vacancy } from './support/write-fixtures.ts';

type TOrm = Awaited<ReturnType<typeof openOrm>>;

let api: TTestApi;
let orm: TOrm;
let databaseUrl: string;
const s = suffix();
const SLUG = `pk-${s}`;
const VACANCY = `job-${s}`;
const SITE = 'https://careers.acme.example';
const OTHER_SITE = 'https://evil.example';
const SECRET = randomKey();
const IMPORTED = `pk_test_${suffix()}${suffix()}${suffix()}`;
let publishable: string;
let publishableDisabled: string;
let tenantId: number;

const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, X-Request-Id';
const ORIGIN_NOT_ALLOWED = { message: 'This origin is not allowed for this key.', error: 'ORIGIN_NOT_ALLOWED' };

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      tenant(SLUG, {
        api_keys: [
          {
            id: 1,
            name: 'server',
            key: SECRET,
            scopes: ['vacancies:read', 'applications:write', 'candidates:read'],
            revoked: false,
          },
          // A publishable key may also come with the tenant document.
          {
            id: 500,
            name: 'imported site',
            key: IMPORTED,
            scopes: ['vacancies:read'],
            kind: 'publishable',
            origins: ['HTTPS://Imported.example/'],
          },
        ],
        vacancies: [vacancy(1, VACANCY)],
      }),
      tenant(`off-${s}`, { api_enabled: false, api_keys: [] }),
    ],
  });
  orm = await openOrm(databaseUrl);
  const ids = await orm.em.fork().execute<{ id: number; slug: string }[]>('select id, slug from tenants');
  tenantId = ids.find((row) => row.slug === SLUG)!.id;
  const created = await createApiKey(serviceContext(orm.em.fork(), tenantId), {
    name: 'Career website',
    kind: 'publishable',
    scopes: ['vacancies:read', 'applications:write'],
    origins: [`${SITE.toUpperCase()}/`, 'http://localhost:5173'],
  });
  publishable = created.plaintext;
  const disabled = await createApiKey(serviceContext(orm.em.fork(), ids.find((row) => row.slug === `off-${s}`)!.id), {
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

const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
];
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
    const rows = await orm.em
      .fork()
      .execute('select kind, origins, start from api_keys where tenant_id = ? order by id', [tenantId]);
    expect(rows.map((row) => [row.kind, row.origins])).toEqual([
      ['secret', null],
      ['publishable', ['https://imported.example']],
      ['publishable', [SITE, 'http://localhost:5173']],
    ]);
  });

  it('imports publishable keys from the tenant document (pk_test_ keys too), with the same rules', async () => {
    const fromSite = await api.get('/me', IMPORTED, { origin: 'https://imported.example' });
    expect(fromSite.status).toBe(200);
    expect(fromSite.body.data.key).toMatchObject({
      id: 500,
      kind: 'publishable',
      prefix: IMPORTED.slice(0, 12),
      origins: ['https://imported.example'],
    });
    expect((await api.get('/me', IMPORTED, { origin: SITE })).status).toBe(403);
    const refused = seed(databaseUrl, {
      tenants: [
        tenant(`bad-${s}`, {
          api_keys: [
            {
              id: 501,
              name: 'x',
              key: randomKey(),
              scopes: ['candidates:read'],
              kind: 'publishable',
              origins: ['https://a.example/x'],
            },
          ],
        }),
      ],
    });
    await expect(refused).rejects.toThrow(/scopes|origins/);
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
    const error = await createApiKey(serviceContext(orm.em.fork(), tenantId), {
      name: 'bad',
      kind: 'publishable',
      ...input,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(Object.keys((error as { fieldErrors: object }).fieldErrors)).toContain(field);
    expect(await orm.em.fork().execute('select count(*)::int as n from api_keys')).toEqual(before);
  });

  it('refuses origins on a secret key', async () => {
    await expect(
      createApiKey(serviceContext(orm.em.fork(), tenantId), {
        name: 'bad',
        scopes: ['vacancies:read'],
        origins: [SITE],
      }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { origins: ['Only a publishable key has allowed origins.'] },
    });
  });
});

describe('CORS preflight', () => {
  it.each(['/vacancies', `/vacancies/${VACANCY}`, '/applications', '/me', '/no-such-path'])(
    'answers OPTIONS %s with 204 for any origin',
    async (path) => {
      for (const origin of [SITE, OTHER_SITE]) {
        const response = await fetch(api.baseUrl + path, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
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
    },
  );

  it('never answers * (not even for the literal origin "null")', async () => {
    const response = await fetch(`${api.baseUrl}/vacancies`, {
      method: 'OPTIONS',
      headers: { origin: 'null', 'access-control-request-method': 'GET' },
    });
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

/** A new publishable key of the test tenant (its own rate-limit windows). */
async function newPublishableKey(
  scopes = ['vacancies:read', 'applications:write'],
): Promise<{ id: number; key: string }> {
  const { apiKey, plaintext } = await createApiKey(serviceContext(orm.em.fork(), tenantId), {
    name: `site ${suffix()}`,
    kind: 'publishable',
    scopes,
    origins: [SITE],
  });
  return { id: apiKey.id, key: plaintext };
}

describe('GET /me', () => {
  it('describes a secret key and its budgets, and uses none of them', async () => {
    const first = await api.get('/me', SECRET);
    expect(first.status).toBe(200);
    const reset = first.body.data.rate_limits.applications.reset;
    expect(first.body).toEqual({
      data: {
        tenant: SLUG,
        key: {
          id: 1,
          name: 'server',
          kind: 'secret',
          prefix: SECRET.slice(0, 12),
          scopes: ['vacancies:read', 'applications:write', 'candidates:read'],
          origins: null,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
        rate_limits: {
          applications: { limit: 10, remaining: 10, reset },
          candidates: { limit: 10, remaining: 10, reset: expect.any(Number) },
          canonical_url: { limit: 60, remaining: 60, reset: expect.any(Number) },
        },
      },
    });
    expect(first.headers.get('access-control-allow-origin')).toBeNull();
    expect(Math.abs(reset - (Date.now() / 1000 + 60))).toBeLessThan(5);

    const applied = await api.post('/applications', applicationBody(VACANCY), SECRET);
    expect(applied.status).toBe(201);
    const appliedReset = Number(rateHeaders(applied).reset ?? 0);
    for (let i = 0; i < 3; i++) {
      const again = await api.get('/me', SECRET);
      expect(again.body.data.rate_limits.applications.remaining).toBe(9);
      expect(again.body.data.rate_limits.candidates.remaining).toBe(10);
      if (appliedReset) expect(again.body.data.rate_limits.applications.reset).toBe(appliedReset);
    }
    // /me itself is not rate-limited and counts against nothing.
    expect(first.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('describes a publishable key from an allowed origin, with the budget of this client address', async () => {
    const { id, key } = await newPublishableKey();
    const me = await api.get('/me', key, { origin: SITE });
    expect(me.status).toBe(200);
    expectActualCors(me, SITE);
    expect(me.body.data.key).toEqual({
      id,
      name: expect.stringMatching(/^site /),
      kind: 'publishable',
      prefix: key.slice(0, 12),
      scopes: ['vacancies:read', 'applications:write'],
      origins: [SITE],
      created_at: expect.any(String),
    });
    expect(me.body.data.key.prefix).toMatch(/^pk_live_/);
    // The address's window (5 a minute) is nearer to exhaustion than the key's (120 stored a minute).
    expect(me.body.data.rate_limits.applications).toMatchObject({ limit: 5, remaining: 5 });
    expect((await api.post('/applications', applicationBody(VACANCY), key, { origin: SITE })).status).toBe(201);
    expect((await api.get('/me', key, { origin: SITE })).body.data.rate_limits.applications).toMatchObject({
      limit: 5,
      remaining: 4,
    });
    // The key's window is over, this address's is not: /me shows the address's.
    await query(
      databaseUrl,
      `update rate_limit_windows set window_start = now() - interval '61 seconds' where bucket = $1`,
      [`${id}:applications.create`],
    );
    expect((await api.get('/me', key, { origin: SITE })).body.data.rate_limits.applications.remaining).toBe(4);
    await query(
      databaseUrl,
      `update rate_limit_windows set window_start = now() - interval '61 seconds' where bucket like $1`,
      [`${id}:applications.create:address:%`],
    );
    expect((await api.get('/me', key, { origin: SITE })).body.data.rate_limits.applications.remaining).toBe(5);
    // A key with 118 stored applications in its window: the key's window is the nearer one now.
    await query(databaseUrl, `update rate_limit_windows set window_start = now(), hits = 118 where bucket = $1`, [
      `${id}:applications.create`,
    ]);
    expect((await api.get('/me', key, { origin: SITE })).body.data.rate_limits.applications).toMatchObject({
      limit: 120,
      remaining: 2,
    });
  });

  it('is refused to a publishable key without its origin, and to no key', async () => {
    const { key } = await newPublishableKey();
    expect((await api.get('/me', key)).body).toEqual(ORIGIN_NOT_ALLOWED);
    expect((await api.get('/me', key, { origin: OTHER_SITE })).status).toBe(403);
    expect((await api.get('/me')).status).toBe(401);
  });
});

describe('write limits of publishable keys, across two API processes (CONTRACT "Guarding the shared service")', () => {
  let processes: TApiProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
  });

  /**
   * POST /applications from a client address: a loopback address of this machine (127.0.0.2…, the socket's own), or
   * an address a trusted proxy names (`X-Forwarded-For`, for IPv6, which loopback cannot give).
   */
  const applyFrom = async (
    target: TApiProcess,
    key: string,
    address: string,
    body: unknown = applicationBody(VACANCY),
    search = '',
    headers: Record<string, string> = {},
  ): Promise<TResponse> => {
    const loopback = address.startsWith('127.');
    return fetchCheckedFrom(loopback ? address : '127.0.0.1', `${target.baseUrl}/applications${search}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        origin: SITE,
        ...(loopback ? {} : { 'x-forwarded-for': address }),
        ...headers,
      },
      body: JSON.stringify(body),
    });
  };
  const statuses = (responses: TResponse[]) => responses.map((r) => r.status).join(',');
  const keyWindowHits = async (id: number) =>
    (
      await query<{ hits: number }>(databaseUrl, 'select hits from rate_limit_windows where bucket = $1', [
        `${id}:applications.create`,
      ])
    )[0]?.hits ?? 0;

  it('one visitor sending empty and validate_only applications spends only its address budget; a real applicant elsewhere is accepted', async () => {
    processes = await Promise.all([
      startApiProcess(databaseUrl, { TRUST_PROXY: 'loopback' }),
      startApiProcess(databaseUrl, { TRUST_PROXY: 'loopback' }),
    ]);
    const { id, key } = await newPublishableKey();
    const visitor = '127.0.0.2';
    // Twenty refused or dry-run requests, alternating processes: the first five are answered, the rest 429.
    const attempts: TResponse[] = [];
    for (let i = 0; i < 20; i++) {
      attempts.push(
        i % 2 === 0
          ? await applyFrom(processes[i % 2]!, key, visitor, {})
          : await applyFrom(processes[i % 2]!, key, visitor, applicationBody(VACANCY), '?validate_only=true'),
      );
    }
    expect(statuses(attempts)).toBe(
      ['422', '200', '422', '200', '422', ...Array.from({ length: 15 }, () => '429')].join(','),
    );
    expect(attempts.slice(0, 5).map((r) => rateHeaders(r).remaining)).toEqual(['4', '3', '2', '1', '0']);
    for (const response of attempts.slice(5)) {
      expect(response.body).toEqual({ message: 'Too Many Attempts.' });
      expect(rateHeaders(response)).toMatchObject({ limit: '5', remaining: '0' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expectActualCors(response, SITE);
    }
    // Nothing of the site's own budget was kept.
    expect(await keyWindowHits(id)).toBe(0);

    // A real applicant from another address applies, through either process.
    const applicant = await applyFrom(processes[1]!, key, '127.0.0.3');
    expect(applicant.status).toBe(201);
    expect(rateHeaders(applicant)).toMatchObject({ limit: '5', remaining: '4' });
    expect(await keyWindowHits(id)).toBe(1);
    expect((await applyFrom(processes[0]!, key, visitor)).status).toBe(429);
    expect(await query(databaseUrl, 'select count(*)::int as n from applications where api_key_id = $1', [id])).toEqual(
      [{ n: 1 }],
    );
    // No client address is stored in the clear.
    const buckets = await query<{ bucket: string }>(
      databaseUrl,
      'select bucket from rate_limit_windows where bucket like $1',
      [`${id}:%`],
    );
    expect(buckets.map((row) => row.bucket).join(' ')).not.toMatch(/127\.0\.0/);
  });

  it('admits exactly the key budget of stored applications when addresses apply at once through both processes', async () => {
    const { id, key } = await newPublishableKey();
    // 117 stored this minute (the key's window started now): 3 places left for 8 applicants from 8 addresses.
    await query(databaseUrl, `insert into rate_limit_windows (bucket, window_start, hits) values ($1, now(), 117)`, [
      `${id}:applications.create`,
    ]);
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => applyFrom(processes[i % 2]!, key, `127.0.0.${10 + i}`)),
    );
    const created = burst.filter((r) => r.status === 201);
    const limited = burst.filter((r) => r.status === 429);
    expect(created, statuses(burst)).toHaveLength(3);
    expect(limited).toHaveLength(5);
    // The key's window is the one refusing (and nearer to exhaustion than any address's).
    for (const response of limited) expect(rateHeaders(response)).toMatchObject({ limit: '120', remaining: '0' });
    expect(created.map((r) => Number(rateHeaders(r).remaining)).sort()).toEqual([0, 1, 2]);
    for (const response of created) expect(rateHeaders(response).limit).toBe('120');
    // The refused requests gave their places back: the window holds exactly what was stored.
    expect(await keyWindowHits(id)).toBe(120);
    expect(await query(databaseUrl, 'select count(*)::int as n from applications where api_key_id = $1', [id])).toEqual(
      [{ n: 3 }],
    );
    // A rejected request (422) in a full window is 429: it is refused by the key, not by validation.
    expect((await applyFrom(processes[0]!, key, '127.0.0.30', {})).status).toBe(429);
  });

  it('keeps no place in the key window for a replay (Idempotency-Key): it stored nothing', async () => {
    const { id, key } = await newPublishableKey();
    const body = applicationBody(VACANCY);
    const idempotency = { 'idempotency-key': `site-${suffix()}` };
    const first = await applyFrom(processes[0]!, key, '127.0.0.40', body, '', idempotency);
    expect(first.status).toBe(201);
    const replay = await applyFrom(processes[1]!, key, '127.0.0.41', body, '', idempotency);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(await keyWindowHits(id)).toBe(1);
  });

  it('counts an IPv6 client by its /64', async () => {
    const { key } = await newPublishableKey();
    const first = await Promise.all(
      Array.from({ length: 5 }, (_, i) => applyFrom(processes[i % 2]!, key, `2001:db8:1:2::${i + 1}`)),
    );
    expect(statuses(first)).toBe('201,201,201,201,201');
    expect((await applyFrom(processes[1]!, key, '2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await applyFrom(processes[0]!, key, '2001:db8:1:3::1')).status).toBe(201);
  });

  it('never limits a secret key per address', async () => {
    const target = processes[0]!;
    const limits = await Promise.all(
      ['198.51.100.1', '198.51.100.1'].map(async (address) => {
        const response = await validatedFetch(`${target.baseUrl}/me`, {
          headers: { authorization: `Bearer ${SECRET}`, 'x-forwarded-for': address },
        });
        return (
          (await response.json()) as { data: { rate_limits: { applications: { remaining: number; limit: number } } } }
        ).data.rate_limits.applications;
      }),
    );
    expect(limits[0]).toEqual(limits[1]);
    expect(limits[0]?.limit).toBe(10);
    const rows = await query(
      databaseUrl,
      `select count(*)::int as n from rate_limit_windows where bucket like '1:%:address:%'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });
});
