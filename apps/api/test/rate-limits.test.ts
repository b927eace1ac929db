import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openOrm } from '@careers/core';
import { createTestDatabase, hitRateLimit, RATE_LIMITS } from '@careers/core/testing';
type TOrm = Awaited<ReturnType<typeof openOrm>>;
import { startTestApi, validatedFetch, type TResponse, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import { startApiProcess, type TApiProcess } from './support/processes.ts';
import {
  applicationBody,
  keys,
  query,
  rateHeaders,
  suffix,
  tenant,
  vacancy,
  type TKeySpec,
} from './support/write-fixtures.ts';

let api: TTestApi;
let orm: TOrm;
let databaseUrl: string;
const s = suffix();
const VACANCY = `job-${s}`;
const DOMAIN = `careers.rl-${s}.example`;
// Each test takes fresh keys, so their windows never interfere.
const pool = keys(1000, 40, ['applications:write', 'vacancies:write']);
let taken = 0;
const freshKey = (): TKeySpec => {
  const spec = pool[taken++];
  if (!spec) throw new Error('key pool exhausted');
  return spec;
};
const readOnly = keys(2000, 1, ['vacancies:read'])[0]!;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      tenant(`rl-${s}`, {
        api_keys: [...pool, readOnly].map((k) => ({ ...k, name: `key ${k.id}` })),
        vacancies: [vacancy(1, VACANCY)],
      }),
    ],
  });
  api = await startTestApi(databaseUrl);
  orm = await openOrm(databaseUrl);
});
afterAll(async () => {
  await api?.close();
  await orm?.close();
});

const apply = (key: string, body: unknown = applicationBody(VACANCY)) => api.post('/applications', body, key);

function expectTooManyAttempts(response: TResponse, limit: number) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ message: 'Too Many Attempts.' });
  const headers = rateHeaders(response);
  expect(headers.limit).toBe(String(limit));
  expect(headers.remaining).toBe('0');
  const retryAfter = Number(headers.retryAfter);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const reset = Number(headers.reset);
  const now = Date.now() / 1000;
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(now + 61);
  // Retry-After and the reset time tell the same story.
  expect(Math.abs(reset - now - retryAfter)).toBeLessThanOrEqual(2);
}

describe('rate limit of POST /applications (10 per minute per key)', () => {
  it('allows 10 requests, counting Remaining down, then answers 429 with Retry-After and X-RateLimit-Reset', async () => {
    const { key } = freshKey();
    for (let i = 1; i <= 10; i++) {
      const response = await apply(key);
      expect(response.status, response.text).toBe(201);
      expect(rateHeaders(response)).toEqual({ limit: '10', remaining: String(10 - i), retryAfter: null, reset: null });
    }
    for (let i = 0; i < 3; i++) expectTooManyAttempts(await apply(key), 10);
    expect(
      await query(
        databaseUrl,
        'select count(*)::int as n from applications a join api_keys k on k.id = a.api_key_id where k.id = $1',
        [pool[taken - 1]!.id],
      ),
    ).toEqual([{ n: 10 }]);
  });

  it('counts 422, 404 and 400 answers (they come after the limit check) and gives them the headers', async () => {
    const { key } = freshKey();
    const invalid = await apply(key, { vacancy: VACANCY });
    expect(invalid.status).toBe(422);
    expect(rateHeaders(invalid)).toMatchObject({ limit: '10', remaining: '9' });
    const missing = await apply(key, applicationBody(`nope-${s}`));
    expect(missing.status).toBe(404);
    expect(rateHeaders(missing)).toMatchObject({ limit: '10', remaining: '8' });
    const notObject = await apply(key, '[]');
    expect(notObject.status).toBe(422);
    expect(rateHeaders(notObject)).toMatchObject({ remaining: '7' });
  });

  it('does not count (and does not label) answers that come before the limit check: 401, 403, 400 malformed JSON, 413', async () => {
    const spec = freshKey();
    const unauthenticated = await api.post('/applications', applicationBody(VACANCY));
    expect(unauthenticated.status).toBe(401);
    expect(rateHeaders(unauthenticated).limit).toBeNull();
    const scope = await apply(readOnly.key);
    expect(scope.status).toBe(403);
    expect(rateHeaders(scope).limit).toBeNull();
    for (let i = 0; i < 12; i++) {
      const malformed = await apply(spec.key, '{"vacancy":');
      expect(malformed.status).toBe(400);
      expect(rateHeaders(malformed).limit).toBeNull();
    }
    const tooLarge = await apply(spec.key, JSON.stringify({ pad: 'x'.repeat(40 * 1024 * 1024 + 10) }));
    expect(tooLarge.status).toBe(413);
    expect(rateHeaders(tooLarge).limit).toBeNull();
    const first = await apply(spec.key);
    expect(first.status).toBe(201);
    expect(rateHeaders(first).remaining).toBe('9');
  });

  it('keeps separate budgets per key and per operation', async () => {
    const a = freshKey();
    const b = freshKey();
    for (let i = 0; i < 10; i++) expect((await apply(a.key)).status).toBe(201);
    expect((await apply(a.key)).status).toBe(429);
    const other = await apply(b.key);
    expect(other.status).toBe(201);
    expect(rateHeaders(other).remaining).toBe('9');
    const canonical = await api.post(`/vacancies/${VACANCY}/canonical-url`, { url: `https://${DOMAIN}/job` }, a.key);
    expect(canonical.status, canonical.text).toBe(200);
    expect(rateHeaders(canonical)).toMatchObject({ limit: '60', remaining: '59' });
  });

  it('starts a new window once the window started by the first request is over', async () => {
    const spec = freshKey();
    for (let i = 0; i < 11; i++) await apply(spec.key);
    expect((await apply(spec.key)).status).toBe(429);
    // 61 seconds later, as far as the window is concerned.
    await query(
      databaseUrl,
      "update rate_limit_windows set window_start = window_start - interval '61 seconds' where bucket = $1",
      [`${spec.id}:applications.create`],
    );
    const response = await apply(spec.key);
    expect(response.status).toBe(201);
    expect(rateHeaders(response)).toMatchObject({ limit: '10', remaining: '9' });
    const [window] = await query(
      databaseUrl,
      'select hits, extract(epoch from now() - window_start) as age from rate_limit_windows where bucket = $1',
      [`${spec.id}:applications.create`],
    );
    expect(window!.hits).toBe(1);
    expect(Number(window!.age)).toBeLessThan(5);
  });

  it('the window is fixed: it does not slide with later requests', async () => {
    const spec = freshKey();
    await apply(spec.key);
    await query(
      databaseUrl,
      "update rate_limit_windows set window_start = window_start - interval '50 seconds' where bucket = $1",
      [`${spec.id}:applications.create`],
    );
    for (let i = 0; i < 9; i++) await apply(spec.key);
    const limited = await apply(spec.key);
    expectTooManyAttempts(limited, 10);
    // About 10 seconds remain of the window that began 50 seconds ago.
    expect(Number(rateHeaders(limited).retryAfter)).toBeLessThanOrEqual(11);
  });

  it('limits canonical URL reports to 60 per minute', async () => {
    const { key } = freshKey();
    const responses = await Promise.all(
      Array.from({ length: 65 }, (_, i) =>
        api.post(`/vacancies/${VACANCY}/canonical-url`, { url: `https://${DOMAIN}/job/${i}` }, key),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(60);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited).toHaveLength(5);
    for (const response of limited) expectTooManyAttempts(response, 60);
    expect(new Set(responses.filter((r) => r.status === 200).map((r) => rateHeaders(r).remaining))).toEqual(
      new Set(Array.from({ length: 60 }, (_, i) => String(i))),
    );
  });
});

describe('hitRateLimit (the atomic counter)', () => {
  it('property: a window admits exactly `limit` hits, and an expired window starts over', async () => {
    let bucketId = 100_000;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<'hit' | 'expire'>('hit', 'hit', 'hit', 'expire'), { minLength: 1, maxLength: 30 }),
        async (steps) => {
          const apiKeyId = bucketId++;
          const { limit } = RATE_LIMITS['applications.create'];
          let hits = 0;
          for (const step of steps) {
            if (step === 'expire') {
              await query(
                databaseUrl,
                "update rate_limit_windows set window_start = window_start - interval '60 seconds' where bucket = $1",
                [`${apiKeyId}:applications.create`],
              );
              hits = 0;
              continue;
            }
            hits++;
            const state = await hitRateLimit(
              { em: orm.em.fork() },
              { apiKeyId: apiKeyId, operation: 'applications.create' },
            );
            expect(state).toMatchObject({ limit, remaining: Math.max(0, limit - hits), exceeded: hits > limit });
            expect(state.retryAfter).toBeGreaterThanOrEqual(1);
            expect(state.retryAfter).toBeLessThanOrEqual(60);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('admits exactly `limit` of many concurrent hits', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        hitRateLimit({ em: orm.em.fork() }, { apiKeyId: 999_999, operation: 'applications.create' }),
      ),
    );
    expect(results.filter((r) => !r.exceeded)).toHaveLength(10);
    expect(new Set(results.filter((r) => !r.exceeded).map((r) => r.remaining))).toEqual(
      new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    );
  });
});

describe('rate limits across API processes', () => {
  let processes: TApiProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
  });

  it('two processes on one database admit exactly 10 of 25 concurrent applications with one key', async () => {
    processes = await Promise.all([startApiProcess(databaseUrl), startApiProcess(databaseUrl)]);
    const spec = freshKey();
    const responses = await Promise.all(
      Array.from({ length: 25 }, async (_, i) => {
        const target = processes[i % 2]!;
        const response = await validatedFetch(`${target.baseUrl}/applications`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${spec.key}` },
          body: JSON.stringify(applicationBody(VACANCY)),
        });
        const text = await response.text();
        return { status: response.status, headers: response.headers, text, body: JSON.parse(text) } as TResponse;
      }),
    );
    const created = responses.filter((r) => r.status === 201);
    const limited = responses.filter((r) => r.status === 429);
    expect(created, responses.map((r) => r.status).join(',')).toHaveLength(10);
    expect(limited).toHaveLength(15);
    for (const response of limited) expectTooManyAttempts(response, 10);
    for (const response of created) expect(rateHeaders(response).limit).toBe('10');
    expect(new Set(created.map((r) => rateHeaders(r).remaining)).size).toBe(10);
    expect(
      await query(databaseUrl, 'select count(*)::int as n from applications where api_key_id = $1', [spec.id]),
    ).toEqual([{ n: 10 }]);
  });
});
