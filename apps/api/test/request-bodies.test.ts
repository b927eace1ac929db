import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '@careers/core/testing';
import { fetchChecked, startTestApi, type TResponse, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import { keyRing, keys, suffix, tenant, vacancy } from './support/write-fixtures.ts';

/**
 * Request bodies on every POST (issue 11, CONTRACT "Errors and input, made exact"): compressed bodies, bodies of
 * too many values, deep nesting, NUL characters and unpaired surrogates, and the per-process budget of body bytes.
 */

const MB = 1024 * 1024;
const s = suffix();
const acme = `acme-${s}`;
const DOMAIN = `careers.${acme}.example`;
const SLUG = `engineer-${s}`;
const USER_ID = 4242;
const WRITE_SCOPES = ['applications:write', 'candidates:write', 'vacancies:write', 'vacancies:read'];
// Every POST allows 10 (canonical URL: 60) requests a minute per key: the property tests take keys from a ring.
const writers = keys(10, 120, WRITE_SCOPES);
const nextKey = keyRing(writers);
const noScope = keys(200, 1, [])[0]!;
const DEEP_MESSAGE = 'The body must not be nested more than 64 levels deep.';

let api: TTestApi;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      tenant(acme, {
        api_keys: [...writers, noScope].map((k) => ({ ...k, name: `key ${k.id}` })),
        users: [{ id: USER_ID, name: 'Ada', email: `ada-${s}@example.org`, role: 'recruiter' }],
        vacancies: [vacancy(1, SLUG, { title: 'Engineer' })],
      }),
    ],
  });
  // Bodies held open on purpose (the budget tests) must not be dropped as stalled while a loaded machine runs them.
  api = await startTestApi(databaseUrl, { bodyStallTimeoutMs: 120_000 });
});

afterAll(async () => {
  await api?.close();
});

type TOperation = { name: string; path: string; body: () => Record<string, unknown> };

const PDF_BASE64 = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
const OPERATIONS: TOperation[] = [
  {
    name: 'POST /applications',
    path: '/applications',
    body: () => ({
      vacancy: SLUG,
      candidate: {
        given_name: 'Ada',
        family_name: 'Lovelace',
        email: `ada.${suffix()}@example.org`,
        linkedin_url: 'https://www.linkedin.com/in/ada',
        mobile_phone: '+31 6 1234 5678',
        fixed_phone: '+31 20 123 4567',
      },
      documents: {
        resume: { filename: 'cv.pdf', content: PDF_BASE64, mime_type: 'application/pdf' },
        cover_letter: { filename: 'letter.pdf', content: PDF_BASE64, mime_type: 'application/pdf' },
        additional: [{ filename: 'extra.pdf', content: PDF_BASE64, mime_type: 'application/pdf' }],
      },
      privacy_policy_accepted: true,
      tracking: { ip_address: '203.0.113.9', user_agent: 'Mozilla/5.0', referrer: 'https://example.org/jobs' },
    }),
  },
  {
    name: 'POST /candidates',
    path: '/candidates',
    body: () => ({
      user_id: USER_ID,
      resume: { filename: 'cv.pdf', content: PDF_BASE64, mime_type: 'application/pdf' },
    }),
  },
  {
    name: 'POST /vacancies/{slug}/canonical-url',
    path: `/vacancies/${SLUG}/canonical-url`,
    body: () => ({ url: `https://${DOMAIN}/jobs/${SLUG}` }),
  },
];

function post(
  path: string,
  body: string | Buffer,
  key: string,
  headers: Record<string, string> = {},
): Promise<TResponse> {
  return fetchChecked(api.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    body,
  });
}

const rateLimitHeader = (response: TResponse) => response.headers.get('x-ratelimit-limit');

/** `levels` nested arrays around `inner`. */
const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);

/** Every string leaf of a body with its dotted path. */
function stringPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringPaths(item, [...path, String(index)]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, key]));
  return [];
}

function withValueAt(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: any = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1] as string] = value;
  return copy;
}

/** Laravel's attribute name of a dotted path (underscores as spaces). */
const attribute = (path: string[]) => path.join('.').replaceAll('_', ' ');

describe.each(OPERATIONS)('$name', (operation) => {
  it('refuses a compressed body with 415 before the scope check and without rate-limit headers; identity is read as usual', async () => {
    const gzipped = gzipSync(JSON.stringify(operation.body()));
    for (const key of [nextKey(), noScope.key]) {
      const response = await post(operation.path, gzipped, key, { 'content-encoding': 'gzip' });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({ message: 'Unsupported Media Type.' });
      expect(rateLimitHeader(response)).toBeNull();
    }
    const deflated = await post(operation.path, JSON.stringify(operation.body()), nextKey(), {
      'content-encoding': 'identity, deflate',
    });
    expect(deflated.status).toBe(415);
    const identity = await post(operation.path, '{', nextKey(), { 'content-encoding': 'identity' });
    expect(identity.status).toBe(400);
  });

  it('answers a 39 MB body of tiny objects with 413 at once, before the scope check, without building it', async () => {
    const body = `[${'{},'.repeat(13 * 1000 * 1000)}{}]`;
    expect(body.length).toBeGreaterThan(38_000_000);
    for (const key of [nextKey(), noScope.key]) {
      const started = performance.now();
      const response = await post(operation.path, body, key);
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ message: 'Payload too large.' });
      expect(rateLimitHeader(response)).toBeNull();
      expect(performance.now() - started).toBeLessThan(5_000);
    }
    // 10 000 values are allowed: the same shape is then an ordinary validation error.
    const allowed = await post(operation.path, `[${'{},'.repeat(9_998)}{}]`, nextKey());
    expect(allowed.status).toBe(422);
    expect(allowed.body.errors).toEqual({ body: ['The body must be an object.'] });
  });

  it('answers JSON nested deeper than 64 levels with 422 errors.body after scope and rate limit, with or without Idempotency-Key', async () => {
    const deepInField = `{"padding":${nested(65)},"other":1}`;
    for (const text of [
      nested(65),
      nested(100_000),
      deepInField,
      `{"a":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_001)}`,
    ]) {
      for (const headers of [{}, { 'idempotency-key': `deep-${suffix()}` }] as Array<Record<string, string>>) {
        const response = await post(operation.path, text, nextKey(), headers);
        expect(response.status, text.slice(0, 40)).toBe(422);
        expect(response.body).toEqual({ message: 'The given data was invalid.', errors: { body: [DEEP_MESSAGE] } });
        expect(rateLimitHeader(response)).not.toBeNull();
      }
    }
    // Scope comes before validation: a key without it learns nothing about the body.
    const forbidden = await post(operation.path, nested(100_000), noScope.key);
    expect(forbidden.status).toBe(403);
    // 64 levels are within the bound: the body is then checked as usual.
    const within = await post(operation.path, `{"padding":${nested(63)}}`, nextKey());
    expect(within.status).toBe(422);
    expect(within.body.errors.body).toBeUndefined();
    // Broken syntax after the depth bound does not matter any more; before it, it is 400.
    expect((await post(operation.path, `${nested(65).slice(0, 70)}}}}`, nextKey())).status).toBe(422);
    expect((await post(operation.path, '[[[}', nextKey())).status).toBe(400);
  });

  it('answers a NUL character or an unpaired surrogate in any string of the body with 422 on that field (404 for vacancy)', async () => {
    const body = operation.body();
    const paths = stringPaths(body);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) {
      for (const bad of ['a\u0000b', '\u0000', 'x\ud800', '\udfffy', 'ok\ud83d']) {
        const response = await post(operation.path, JSON.stringify(withValueAt(body, path, bad)), nextKey());
        if (path.join('.') === 'vacancy') {
          expect(response.status, `${path.join('.')} ${JSON.stringify(bad)}`).toBe(404);
          expect(response.body).toEqual({ message: 'Vacancy not found', error: 'VACANCY_NOT_FOUND' });
          continue;
        }
        expect(response.status, `${path.join('.')} ${JSON.stringify(bad)}: ${response.text}`).toBe(422);
        expect(response.body.errors).toEqual({
          [path.join('.')]: [`The ${attribute(path)} must not contain NUL characters or unpaired surrogates.`],
        });
      }
    }
  });

  it('property: a NUL or an unpaired surrogate anywhere in a string of the body is a 4xx, never a 5xx', async () => {
    const body = operation.body();
    const paths = stringPaths(body);
    const badText = fc
      .tuple(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'),
        fc.string({ maxLength: 12 }),
      )
      .map(([before, bad, after]) => before + bad + after);
    // Either a known field is replaced, or an extra field of any JSON shape carries the bad text somewhere.
    const extra = fc.record({ key: fc.string({ maxLength: 8 }), value: fc.jsonValue({ maxDepth: 3 }), bad: badText });
    await fc.assert(
      fc.asyncProperty(
        fc.nat(paths.length - 1),
        badText,
        fc.option(extra, { nil: undefined }),
        async (index, bad, addition) => {
          let sent = withValueAt(body, paths[index] as string[], bad);
          if (addition) sent = { ...sent, [addition.key]: [addition.value, { [addition.bad]: addition.bad }] };
          const response = await post(operation.path, JSON.stringify(sent), nextKey());
          expect(response.status, response.text).toBeGreaterThanOrEqual(400);
          expect(response.status, response.text).toBeLessThan(500);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('applications with a bad vacancy reference', () => {
  it('a NUL or unpaired surrogate in a slug path parameter or vacancy is not found, never a 5xx', async () => {
    const canonical = await post(
      `/vacancies/${SLUG}%00/canonical-url`,
      JSON.stringify({ url: `https://${DOMAIN}/x` }),
      nextKey(),
    );
    expect(canonical.status).toBe(404);
    const applications = await post(
      '/applications',
      JSON.stringify({ ...OPERATIONS[0]!.body(), vacancy: `${SLUG}\ud800` }),
      nextKey(),
    );
    expect(applications.status).toBe(404);
  });
});

describe('a body that does not stop', () => {
  it('is answered 413 as soon as it crosses a bound, read into nothing for a while, then its connection is closed', async () => {
    const url = new URL(`${api.baseUrl}/applications`);
    // Chunked (no Content-Length), endless tiny objects: the value bound is crossed after a few KB.
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { authorization: `Bearer ${nextKey()}`, 'content-type': 'application/json' },
    });
    let status: number | undefined;
    request.once('response', (response) => {
      status = response.statusCode;
      response.resume();
    });
    const closed = new Promise<void>((resolve) => {
      request.once('error', () => resolve());
      request.once('close', () => resolve());
    });
    const chunk = Buffer.from('{},'.repeat(349_525));
    let written = 0;
    let open = true;
    void closed.then(() => (open = false));
    request.write('[');
    while (open && written < 400 * MB) {
      const more = request.write(chunk);
      written += chunk.length;
      if (!more) await Promise.race([new Promise((resolve) => request.once('drain', resolve)), closed]);
    }
    await closed;
    expect(status).toBe(413);
    // The server stops after twice the body limit (80 MiB) at most, plus what was in flight.
    expect(written).toBeLessThan(120 * MB);
  });
});

describe('the body budget of a process', () => {
  /**
   * Starts a POST whose body is `size` bytes of an unfinished JSON string, and keeps it open. Each from its own loopback
   * address (127.0.0.2…), as one address may hold only a quarter of the budget (slow-bodies.test.ts).
   */
  function holdBody(
    size: number,
    localAddress: string,
  ): Promise<{ request: ClientRequest; response: Promise<IncomingMessage> }> {
    const url = new URL(`${api.baseUrl}/applications`);
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      localAddress,
      method: 'POST',
      headers: {
        authorization: `Bearer ${nextKey()}`,
        'content-type': 'application/json',
        'content-length': String(size + 1),
      },
    });
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    return new Promise((resolve) => {
      request.write(`"${'a'.repeat(size - 1)}`, () => resolve({ request, response }));
    });
  }

  it('sheds a body with 503 and Retry-After while the bodies being read exceed 160 MiB, and takes bodies again afterwards', async () => {
    const held = [];
    for (let i = 0; i < 5; i++) held.push(await holdBody(33 * MB, `127.0.0.${2 + i}`));
    // Give the server a moment to read what was sent.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const statuses = await Promise.all(
      held.map(async ({ response }) =>
        Promise.race([
          response.then((r) => r.statusCode),
          new Promise((resolve) => setTimeout(() => resolve('pending'), 100)),
        ]),
      ),
    );
    // Four bodies fit into the budget (132 MiB); the fifth crossed it and was answered at once.
    expect(statuses.filter((status) => status === 'pending')).toHaveLength(4);
    const shed = await held.find((_, index) => statuses[index] === 503)!.response;
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('2');
    const busy = await post('/applications', JSON.stringify(OPERATIONS[0]!.body()), nextKey());
    expect(busy.status).toBe(201);
    const shedBig = await post(
      '/applications',
      JSON.stringify({ ...OPERATIONS[0]!.body(), padding: 'x'.repeat(30 * MB) }),
      nextKey(),
    );
    expect(shedBig.status).toBe(503);
    expect(shedBig.body).toEqual({ message: 'The server is busy reading other request bodies; retry shortly.' });
    expect(shedBig.headers.get('retry-after')).toBe('2');
    expect(rateLimitHeader(shedBig)).toBeNull();
    // The held bodies end (as JSON strings, not objects: 422), and the budget is free again.
    for (const { request, response } of held) {
      if (request.writableEnded) continue;
      request.end('"');
      const answer = await response;
      if (answer.statusCode !== 503) expect(answer.statusCode).toBe(422);
      answer.resume();
    }
    const after = await post(
      '/applications',
      JSON.stringify({ ...OPERATIONS[0]!.body(), padding: 'x'.repeat(30 * MB) }),
      nextKey(),
    );
    expect(after.status).toBe(201);
  });
});
