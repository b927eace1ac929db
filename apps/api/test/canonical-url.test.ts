import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '@careers/core/testing';
import { startTestApi, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import { keyRing, keys, query, rateHeaders, suffix, tenant, vacancy } from './support/write-fixtures.ts';

let api: TTestApi;
let databaseUrl: string;
const s = suffix();
const acme = `acme-${s}`;
const writers = keys(10, 10, ['vacancies:write', 'vacancies:read']);
const nextKey = keyRing(writers);
const applicationsOnly = keys(30, 1, ['applications:write'])[0]!;
const bareKey = keys(31, 1, ['vacancies:write'])[0]!;
const globexKey = keys(40, 1, ['vacancies:write'])[0]!;
const DOMAIN = `careers.${acme}.example`;
const slugs = {
  open: `engineer-${s}`,
  second: `designer-${s}`,
  draft: `draft-${s}`,
  ended: `ended-${s}`,
  websiteOnly: `web-${s}`,
  other: `globex-job-${s}`,
};

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      tenant(acme, {
        api_keys: [...writers, applicationsOnly, bareKey].map((k) => ({ ...k, name: `key ${k.id}` })),
        vacancies: [
          vacancy(1, slugs.open, { title: 'Engineer' }),
          vacancy(2, slugs.second, { accepts_applications: false }),
          vacancy(3, slugs.draft, { status: 'draft' }),
          vacancy(4, slugs.ended, { ends_at: '2024-06-01T00:00:00Z' }),
          vacancy(5, slugs.websiteOnly, { channels: ['website'] }),
        ],
      }),
      // No career-site domain at all: only its own domains are allowed.
      tenant(`globex-${s}`, {
        career_site: null,
        domains: [`globex-${s}.example`],
        api_keys: [{ ...globexKey, name: 'globex' }],
        vacancies: [vacancy(9, slugs.other)],
      }),
    ],
  });
  api = await startTestApi(databaseUrl);
});
afterAll(async () => api?.close());

const report = (slug: string, body: unknown, key = nextKey()) =>
  api.post(`/vacancies/${encodeURIComponent(slug)}/canonical-url`, body, key);
const storedUrl = async (id: number) =>
  (await query(databaseUrl, 'select canonical_url from vacancies where id = $1', [id]))[0]?.canonical_url;

async function expectUrl422(slug: string, body: unknown, message: string) {
  const response = await report(slug, body);
  expect(response.status, JSON.stringify(body)).toBe(422);
  expect(response.body).toEqual({ message: 'The given data was invalid.', errors: { url: [message] } });
}

const HOST_MESSAGE = "The url host must be the tenant's career site domain or one of its domains.";
const FORMAT_MESSAGE = 'The url must be a valid URL starting with https://.';

describe('POST /vacancies/{slug}/canonical-url', () => {
  it('stores the URL as a browser parses it (normalized) and confirms it', async () => {
    const url = `https://${DOMAIN}/vacatures/Engineer-%C3%A9?ref=api&x=1#top`;
    const response = await report(slugs.open, { url });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ message: 'Canonical URL stored.', data: { publication_slug: slugs.open, url } });
    expect(await storedUrl(1)).toBe(url);
  });

  it("makes the reported URL the vacancy's url in vacancy responses, ahead of the URL pattern", async () => {
    const key = nextKey();
    const before = await api.get(`/vacancies/${slugs.second}`, key);
    expect(before.status).toBe(200);
    expect(before.body.data.url).toBe(`https://careers.${acme}.example/jobs/${slugs.second}`);
    const url = `https://jobs.${acme}.example/designer`;
    expect((await report(slugs.second, { url }, key)).status).toBe(200);
    const detail = await api.get(`/vacancies/${slugs.second}`, key);
    expect(detail.body.data.url).toBe(url);
    const list = await api.get('/vacancies?per_page=100', key);
    expect(list.body.data.find((v: { slug: string }) => v.slug === slugs.second).url).toBe(url);
    // Reporting again replaces it.
    const newer = `https://${DOMAIN}/designer-2`;
    expect((await report(slugs.second, { url: newer }, key)).status).toBe(200);
    expect((await api.get(`/vacancies/${slugs.second}`, key)).body.data.url).toBe(newer);
  });

  it('compares the host case-insensitively and accepts every tenant domain', async () => {
    for (const url of [
      `https://${DOMAIN.toUpperCase()}/A`,
      `https://${acme}.example/b`,
      `HTTPS://Jobs.${acme}.Example/c`,
      `https://${DOMAIN}:443/d`,
    ]) {
      const response = await report(slugs.open, { url });
      expect(response.status, url).toBe(200);
      expect(response.body.data.url).toBe(new URL(url).href);
      expect(await storedUrl(1)).toBe(new URL(url).href);
    }
    expect(await storedUrl(1)).toBe(`https://${DOMAIN}/d`);
  });

  it.each([
    ['a backslash before @', `https://${DOMAIN}\\@evil.example/`, `https://${DOMAIN}/@evil.example/`],
    [
      'quotes and angle brackets',
      `https://${DOMAIN}/x"><script>alert(1)</script>`,
      `https://${DOMAIN}/x%22%3E%3Cscript%3Ealert(1)%3C/script%3E`,
    ],
    ['an encoded dot in the host', `https://careers%2E${acme}.example/a`, `https://${DOMAIN}/a`],
    ['dot segments', `https://${DOMAIN}/a/../b/./c`, `https://${DOMAIN}/b/c`],
  ])('judges the parsed host and stores the normalized URL: %s', async (_name, url, stored) => {
    const response = await report(slugs.open, { url });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.url).toBe(stored);
    expect(await storedUrl(1)).toBe(stored);
    const detail = await api.get(`/vacancies/${slugs.open}`, nextKey());
    expect(detail.body.data.url).toBe(stored);
  });

  it('a URL of 2048 characters whose normalized form is longer is 422, not stored cut', async () => {
    const before = await storedUrl(1);
    const prefix = `https://${DOMAIN}/`;
    await expectUrl422(
      slugs.open,
      { url: prefix + '"'.repeat(2048 - prefix.length) },
      'The url must not be greater than 2048 characters.',
    );
    expect(await storedUrl(1)).toBe(before);
  });

  it('accepts exactly 2048 characters and refuses 2049', async () => {
    const prefix = `https://${DOMAIN}/`;
    const url = prefix + 'a'.repeat(2048 - prefix.length);
    expect((await report(slugs.open, { url })).status).toBe(200);
    await expectUrl422(slugs.open, { url: `${url}b` }, 'The url must not be greater than 2048 characters.');
  });

  it.each([
    ['http', `http://${DOMAIN}/job`, FORMAT_MESSAGE],
    ['no scheme', `${DOMAIN}/job`, FORMAT_MESSAGE],
    ['scheme without slashes', `https:${DOMAIN}/job`, FORMAT_MESSAGE],
    ['relative', '/jobs/engineer', FORMAT_MESSAGE],
    ['whitespace', `https://${DOMAIN}/a job`, FORMAT_MESSAGE],
    ['leading space', ` https://${DOMAIN}/job`, FORMAT_MESSAGE],
    ['credentials', `https://user:pw@${DOMAIN}/job`, FORMAT_MESSAGE],
    ['another host', 'https://evil.example/job', HOST_MESSAGE],
    ['a subdomain of the domain', `https://evil.${DOMAIN}/job`, HOST_MESSAGE],
    ['the domain as a prefix', `https://${DOMAIN}.evil.example/job`, HOST_MESSAGE],
    ['a non-default port', `https://${DOMAIN}:8443/job`, HOST_MESSAGE],
    ['a trailing dot', `https://${DOMAIN}./job`, HOST_MESSAGE],
    ['the domain as user info, by backslash', `https://evil.example\\@${DOMAIN}/job`, HOST_MESSAGE],
    ['the domain in the path', `https://evil.example/${DOMAIN}`, HOST_MESSAGE],
    ['the domain after a quote', `https://evil.example/"${DOMAIN}`, HOST_MESSAGE],
    ["another tenant's domain", `https://globex-${s}.example/job`, HOST_MESSAGE],
  ])('422 errors.url: %s', async (_name, url, message) => {
    const before = await storedUrl(1);
    await expectUrl422(slugs.open, { url }, message);
    expect(await storedUrl(1)).toBe(before);
  });

  it('requires url as a string', async () => {
    await expectUrl422(slugs.open, {}, 'The url field is required.');
    await expectUrl422(slugs.open, { url: '' }, 'The url field is required.');
    await expectUrl422(slugs.open, { url: 42 }, 'The url must be a string.');
    const notObject = await report(slugs.open, '["https://x"]');
    expect(notObject.status).toBe(422);
  });

  it('validates before looking the vacancy up (422 beats 404)', async () => {
    await expectUrl422(`missing-${s}`, { url: 'https://evil.example/' }, HOST_MESSAGE);
  });

  it.each([
    ['unknown', `missing-${s}`],
    ['draft', slugs.draft],
    ['ended', slugs.ended],
    ['not on the api channel', slugs.websiteOnly],
    ["another tenant's", slugs.other],
  ])('404 Resource not found for a vacancy that is %s', async (_name, slug) => {
    const response = await report(slug, { url: `https://${DOMAIN}/x` });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Resource not found.' });
  });

  it('leaves invisible and foreign vacancies untouched', async () => {
    expect(
      await query(databaseUrl, 'select id from vacancies where canonical_url is not null and id <> all($1::int[])', [
        [1, 2],
      ]),
    ).toEqual([]);
  });

  it('a tenant without a career-site domain accepts its own domains only', async () => {
    const ok = await report(slugs.other, { url: `https://globex-${s}.example/jobs/1` }, globexKey.key);
    expect(ok.status, ok.text).toBe(200);
    const bad = await report(slugs.other, { url: `https://${DOMAIN}/jobs/1` }, globexKey.key);
    expect(bad.status).toBe(422);
  });

  it('needs vacancies:write (and a key)', async () => {
    const denied = await report(slugs.open, { url: `https://${DOMAIN}/x` }, applicationsOnly.key);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      message: 'This API key does not have the required scope: vacancies:write.',
      error: 'INSUFFICIENT_SCOPE',
      required_scope: 'vacancies:write',
    });
    const anonymous = await api.post(`/vacancies/${slugs.open}/canonical-url`, { url: `https://${DOMAIN}/x` });
    expect(anonymous.status).toBe(401);
  });

  it('carries the 60-per-minute rate-limit headers', async () => {
    const response = await report(slugs.open, { url: `https://${DOMAIN}/rl` }, bareKey.key);
    expect(response.status).toBe(200);
    expect(rateHeaders(response)).toMatchObject({ limit: '60', remaining: '59', retryAfter: null });
  });

  it('property: only URLs on an allowed host are stored, normalized', async () => {
    const allowed = [DOMAIN, `${acme}.example`, `jobs.${acme}.example`];
    const host = fc.oneof(
      fc.constantFrom(...allowed).chain((h) => fc.mixedCase(fc.constant(h))),
      fc.domain().filter((d) => !allowed.includes(d.toLowerCase())),
    );
    const path = fc
      .array(fc.stringMatching(/^[A-Za-z0-9._~%-]{1,12}$/), { maxLength: 4 })
      .map((parts) => `/${parts.join('/')}`);
    await fc.assert(
      fc.asyncProperty(host, path, async (h, p) => {
        const url = `https://${h}${p}`;
        const response = await report(slugs.open, { url });
        if (allowed.includes(h.toLowerCase())) {
          expect(response.status, url).toBe(200);
          expect(response.body.data.url).toBe(new URL(url).href);
          expect(await storedUrl(1)).toBe(new URL(url).href);
        } else {
          expect(response.status, url).toBe(422);
          expect(Object.keys(response.body.errors)).toEqual(['url']);
        }
      }),
      { numRuns: 60 },
    );
  });
});
