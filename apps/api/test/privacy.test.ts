import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  createTestDatabase,
  dumpAllData,
  hashApiKey,
  startWebhookReceiver,
  type TWebhookReceiver,
} from '@careers/core/testing';
import { createWebhookEndpoint, importTenantDocument, serviceContext } from '@careers/core/operations';
import type { TWebhookRunner } from '@careers/core/worker';
import { startTestWebhookRunner } from './support/webhook-runner.ts';
import { fetchChecked, startTestApi, type TResponse, type TTestApi } from './support/api.ts';
import { query, suffix, tenant, vacancy } from './support/write-fixtures.ts';

/**
 * CONTRACT "Privacy by design" through real HTTP: consents, erasure (DELETE /candidates/{id}) leaving no trace of the
 * person anywhere in the database while every other person and tenant keeps what they had, export, and the change feed
 * and webhooks hearing `candidate.erased` with the id only.
 */

process.env.WEBHOOK_ALLOW_INSECURE_LOCAL = '1';

const fresh = () => randomBytes(6).toString('hex');
const ACME_KEY = `ck_test_privacy_acme_${fresh()}`;
// Applications are limited per key (10 a minute): applicants are spread over a ring of keys per tenant.
const ACME_APPLY_KEYS = Array.from({ length: 8 }, () => `ck_test_privacy_apply_${fresh()}`);
const GLOBEX_APPLY_KEYS = Array.from({ length: 8 }, () => `ck_test_privacy_gapply_${fresh()}`);
let applied = 0;
const applyKeyOf = (key: string) => {
  const ring = key === GLOBEX_KEY ? GLOBEX_APPLY_KEYS : key === ACME_KEY ? ACME_APPLY_KEYS : [key];
  return ring[applied++ % ring.length]!;
};
const ACME_READ_ONLY = `ck_test_privacy_read_${fresh()}`;
const GLOBEX_KEY = `ck_test_privacy_globex_${fresh()}`;
const CONSENT_KEY = `ck_test_privacy_consent_${fresh()}`;

let databaseUrl: string;
let api: TTestApi;
let receiver: TWebhookReceiver;
let runner: TWebhookRunner;

const allScopes = ['vacancies:read', 'applications:write', 'candidates:read', 'candidates:delete'];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
  await importTenantDocument(
    { em: api.services.orm.em },
    {
      tenants: [
        tenant('acme', {
          id: 1,
          api_keys: [
            { id: 1, name: 'all', key: ACME_KEY, scopes: allScopes },
            { id: 2, name: 'read', key: ACME_READ_ONLY, scopes: ['vacancies:read', 'candidates:read'] },
            ...ACME_APPLY_KEYS.map((key, index) => ({
              id: 10 + index,
              name: `apply ${index}`,
              key,
              scopes: ['applications:write'],
            })),
          ],
          vacancies: [vacancy(1, 'engineer'), vacancy(2, 'designer'), vacancy(3, 'writer')],
        }),
        tenant('globex', {
          id: 2,
          api_keys: [
            { id: 3, name: 'all', key: GLOBEX_KEY, scopes: allScopes },
            ...GLOBEX_APPLY_KEYS.map((key, index) => ({
              id: 20 + index,
              name: `apply ${index}`,
              key,
              scopes: ['applications:write'],
            })),
          ],
          vacancies: [vacancy(4, 'engineer')],
        }),
        tenant('initech', {
          id: 3,
          privacy: {
            require_processing_consent: true,
            policy_version: '2026-11',
            retention_days: 30,
            talent_pool_retention_days: 365,
          },
          api_keys: [{ id: 4, name: 'all', key: CONSENT_KEY, scopes: allScopes }],
          vacancies: [vacancy(5, 'analyst')],
        }),
      ],
    },
  );
  receiver = await startWebhookReceiver();
  await createWebhookEndpoint(serviceContext(api.services.orm.em.fork(), 1), { url: receiver.url, eventTypes: ['*'] });
  runner = startTestWebhookRunner(api);
});

afterAll(async () => {
  await runner?.stop(1000);
  await receiver?.close();
  await api?.close();
});

const erase = (id: number | string, key = ACME_KEY): Promise<TResponse> =>
  fetchChecked(`${api.baseUrl}/candidates/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });

type TPerson = {
  given: string;
  family: string;
  email: string;
  phone: string;
  userAgent: string;
  referrer: string;
  ip: string;
  documents: Buffer[];
};

function newPerson(): TPerson {
  const id = fresh();
  return {
    given: `Gwendolyn${id}`,
    family: `Oyelaran${id}`,
    email: `gwen.${id}@privacy.example`,
    phone: `+3161${randomBytes(4).readUInt32BE(0) % 10_000_000}`.padEnd(12, '7'),
    userAgent: `PrivacyAgent/${id}`,
    referrer: `https://referrer.example/${id}`,
    ip: `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
    documents: [randomBytes(3000), randomBytes(1500)],
  };
}

async function apply(
  person: TPerson,
  vacancyRef: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<TResponse> {
  const response = await api.post(
    '/applications',
    {
      vacancy: vacancyRef,
      candidate: {
        given_name: person.given,
        family_name: person.family,
        email: person.email,
        mobile_phone: person.phone,
      },
      documents: {
        resume: {
          filename: `${person.family}-cv.pdf`,
          mime_type: 'application/pdf',
          content: person.documents[0]!.toString('base64'),
        },
        cover_letter: {
          filename: `${person.family}-letter.txt`,
          mime_type: 'text/plain',
          content: person.documents[1]!.toString('base64'),
        },
      },
      privacy_policy_accepted: true,
      consents: { processing: true, talent_pool: false },
      tracking: { ip_address: person.ip, user_agent: person.userAgent, referrer: person.referrer },
    },
    applyKeyOf(key),
    headers,
  );
  expect(response.status, response.text).toBe(201);
  return response;
}

/** Every text that would identify the person, and every 48-byte window of their documents (as bytea hex). */
function tracesOf(person: TPerson, dump: string): string[] {
  const found: string[] = [];
  const lower = dump.toLowerCase();
  for (const text of [
    person.email,
    person.given,
    person.family,
    person.phone,
    person.userAgent,
    person.referrer,
    person.ip,
  ]) {
    if (lower.includes(text.toLowerCase())) found.push(text);
  }
  for (const [index, document] of person.documents.entries()) {
    const hex = document.toString('hex');
    // A byte window starts at an even hex offset; every window of 48 bytes is 96 hex digits.
    for (let offset = 0; offset + 96 <= hex.length; offset += 2) {
      if (lower.includes(hex.slice(offset, offset + 96))) {
        found.push(`document ${index} bytes ${offset / 2}…`);
        break;
      }
    }
    const base64 = document.toString('base64');
    for (let offset = 0; offset + 64 <= base64.length; offset += 4) {
      if (dump.includes(base64.slice(offset, offset + 64))) {
        found.push(`document ${index} base64 ${offset}…`);
        break;
      }
    }
  }
  return found;
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const webhookBodies = () =>
  receiver.received.map((request) => JSON.parse(request.body) as { type: string; data: Record<string, unknown> });

describe('erasure (DELETE /candidates/{id})', () => {
  it('leaves no trace of the person in any table, while another candidate of the tenant and one of another tenant keep everything', async () => {
    const person = newPerson();
    const sameTenant = newPerson();
    const otherTenant = newPerson();
    const first = await apply(person, 'engineer', ACME_KEY, { 'Idempotency-Key': `privacy-${fresh()}` });
    const second = await apply(person, 'designer', ACME_KEY);
    const candidateId = first.body.data.candidate.id as number;
    expect(second.body.data.candidate.id).toBe(candidateId);
    await apply(sameTenant, 'engineer', ACME_KEY, { 'Idempotency-Key': `privacy-${fresh()}` });
    await apply(otherTenant, 'engineer', GLOBEX_KEY, { 'Idempotency-Key': `privacy-${fresh()}` });
    // The webhooks of both applications were delivered (their payloads are in the delivery log).
    for (const application of [first, second]) {
      await waitFor('application.created webhook', () =>
        webhookBodies().find(
          (body) => body.type === 'application.created' && body.data.id === application.body.data.id,
        ),
      );
    }
    const before = await dumpAllData(databaseUrl);
    expect(tracesOf(person, before).length).toBeGreaterThan(5);

    const otherCandidates = await query(
      databaseUrl,
      'select id, tenant_id from candidates where lower(email) in ($1, $2) order by id',
      [sameTenant.email.toLowerCase(), otherTenant.email.toLowerCase()],
    );
    const readsBefore = await Promise.all(
      otherCandidates.map(
        async (row) =>
          (await api.get(`/candidates/${row.id}/export`, row.tenant_id === 1 ? ACME_KEY : GLOBEX_KEY)).text,
      ),
    );

    const erased = await erase(candidateId);
    expect(erased.status, erased.text).toBe(204);
    expect(erased.text).toBe('');

    const erasedWebhook = await waitFor('candidate.erased webhook', () =>
      webhookBodies().find((body) => body.type === 'candidate.erased'),
    );
    expect(erasedWebhook.data).toEqual({ id: candidateId });

    const after = await dumpAllData(databaseUrl);
    expect(tracesOf(person, after)).toEqual([]);
    // The others are all still there, and read exactly as before.
    expect(tracesOf(sameTenant, after).length).toBeGreaterThan(5);
    expect(tracesOf(otherTenant, after).length).toBeGreaterThan(5);
    const readsAfter = await Promise.all(
      otherCandidates.map(
        async (row) =>
          (await api.get(`/candidates/${row.id}/export`, row.tenant_id === 1 ? ACME_KEY : GLOBEX_KEY)).text,
      ),
    );
    expect(readsAfter).toEqual(readsBefore);
  });

  it("is 404 afterwards like any unknown candidate: a second DELETE, GET, export; another tenant's id is 404 and untouched", async () => {
    const person = newPerson();
    const id = (await apply(person, 'writer', ACME_KEY)).body.data.candidate.id as number;
    const foreign = newPerson();
    const foreignId = (await apply(foreign, 'engineer', GLOBEX_KEY)).body.data.candidate.id as number;

    expect((await erase(foreignId)).status).toBe(404);
    expect((await api.get(`/candidates/${foreignId}`, GLOBEX_KEY)).status).toBe(200);

    expect((await erase(id)).status).toBe(204);
    expect((await erase(id)).status).toBe(404);
    expect((await api.get(`/candidates/${id}`, ACME_KEY)).status).toBe(404);
    expect((await api.get(`/candidates/${id}/export`, ACME_KEY)).status).toBe(404);
    expect((await erase('abc')).status).toBe(404);
    expect((await erase(99_999_999_999)).status).toBe(404);
  });

  it('needs candidates:delete: a key without it is 403 and erases nothing', async () => {
    const person = newPerson();
    const id = (await apply(person, 'writer', ACME_KEY)).body.data.candidate.id as number;
    const refused = await erase(id, ACME_READ_ONLY);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'INSUFFICIENT_SCOPE' });
    expect((await api.get(`/candidates/${id}`, ACME_KEY)).status).toBe(200);
  });

  it('puts candidate.erased (id only) in the change feed for a key with candidates:read, and not for a key without it', async () => {
    const person = newPerson();
    const id = (await apply(person, 'writer', ACME_KEY)).body.data.candidate.id as number;
    expect((await erase(id)).status).toBe(204);
    const feed = await api.get('/changes?limit=1000&types[]=candidate', ACME_READ_ONLY);
    expect(feed.status, feed.text).toBe(200);
    const entries = (feed.body.data as Array<{ type: string; object: string; id: number; slug: string | null }>).filter(
      (entry) => entry.id === id,
    );
    expect(entries).toEqual([
      expect.objectContaining({ type: 'candidate.erased', object: 'candidate', id, slug: null }),
    ]);
    // By default too, for a key with candidates:read.
    const byDefault = await api.get('/changes?limit=1000', ACME_READ_ONLY);
    expect(
      (byDefault.body.data as Array<{ type: string; id: number }>).some(
        (entry) => entry.type === 'candidate.erased' && entry.id === id,
      ),
    ).toBe(true);
    // A key without candidates:read never sees candidate entries, and may not ask for them.
    const vacanciesOnly = `ck_test_privacy_vac_${fresh()}`;
    await query(
      databaseUrl,
      `insert into api_keys (tenant_id, name, key_hash, start, scopes, kind) values (1, 'vac', $1, 'ck_test', '{vacancies:read}', 'secret')`,
      [hashApiKey(vacanciesOnly)],
    );
    const withoutScope = await api.get('/changes?limit=1000', vacanciesOnly);
    expect(withoutScope.status, withoutScope.text).toBe(200);
    expect((withoutScope.body.data as Array<{ object: string }>).every((entry) => entry.object !== 'candidate')).toBe(
      true,
    );
    expect((await api.get('/changes?types[]=candidate', vacanciesOnly)).status).toBe(403);
  });
});

describe('consents on POST /applications', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    vacancy: 'analyst',
    candidate: { given_name: 'Con', family_name: 'Sent', email: `con.${suffix()}@example.org` },
    ...overrides,
  });

  it('is 422 on consents.processing when the tenant requires it, listed with every other error, also for validate_only', async () => {
    const missing = await api.post('/applications', body(), CONSENT_KEY);
    expect(missing.status, missing.text).toBe(422);
    expect(missing.body.errors).toEqual({ 'consents.processing': [expect.any(String)] });
    const refused = await api.post(
      '/applications',
      body({ consents: { processing: false, talent_pool: true } }),
      CONSENT_KEY,
    );
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(['consents.processing']);
    const withOthers = await api.post(
      '/applications',
      body({ candidate: { given_name: 'Con', family_name: 'Sent', email: 'not-an-email' } }),
      CONSENT_KEY,
    );
    expect(withOthers.status).toBe(422);
    expect(Object.keys(withOthers.body.errors).sort()).toEqual(['candidate.email', 'consents.processing']);
    const dryRun = await api.post('/applications?validate_only=true', body(), CONSENT_KEY);
    expect(dryRun.status).toBe(422);
    expect(Object.keys(dryRun.body.errors)).toEqual(['consents.processing']);
    const count = await query(databaseUrl, 'select count(*)::int as n from applications where tenant_id = 3');
    expect(count[0]!.n).toBe(0);
  });

  it("stores and echoes the consents with given_at (the creation time) and the tenant's policy version, and shows them in the export", async () => {
    const created = await api.post(
      '/applications',
      body({ consents: { processing: true, talent_pool: true } }),
      CONSENT_KEY,
      { 'Idempotency-Key': `c-${fresh()}` },
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.consents).toEqual({
      processing: true,
      talent_pool: true,
      given_at: created.body.data.created_at,
      policy_version: '2026-11',
    });
    const exported = await api.get(`/candidates/${created.body.data.candidate.id}/export`, CONSENT_KEY);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.data.applications[0].consents).toEqual(created.body.data.consents);
  });

  it('defaults to no consent where the tenant does not require it', async () => {
    const created = await api.post(
      '/applications',
      {
        vacancy: 'writer',
        candidate: { given_name: 'No', family_name: 'Consent', email: `no.${suffix()}@example.org` },
      },
      ACME_KEY,
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.consents).toEqual({
      processing: false,
      talent_pool: false,
      given_at: created.body.data.created_at,
      policy_version: null,
    });
  });
});

describe('export (GET /candidates/{id}/export)', () => {
  it('holds the candidate, every application with answers, consents, tracking and documents (base64, byte for byte)', async () => {
    const person = newPerson();
    const first = await apply(person, 'engineer', ACME_KEY);
    const second = await apply(person, 'writer', ACME_KEY);
    const id = first.body.data.candidate.id as number;
    const exported = await api.get(`/candidates/${id}/export`, ACME_READ_ONLY);
    expect(exported.status, exported.text).toBe(200);
    const { candidate, applications, resumes } = exported.body.data;
    expect(candidate).toMatchObject({
      id,
      first_name: person.given,
      last_name: person.family,
      email: person.email,
      phone: person.phone,
    });
    expect(applications.map((a: { id: number }) => a.id)).toEqual([first.body.data.id, second.body.data.id]);
    expect(applications[1]).toMatchObject({
      vacancy: { id: 3, slug: 'writer', title: 'Vacancy writer' },
      answers: {},
      tracking: { ip_address: person.ip, user_agent: person.userAgent, referrer: person.referrer },
      privacy_policy_accepted: true,
      created_at: second.body.data.created_at,
    });
    expect(
      applications[0].documents.map((d: { type: string; filename: string; size: number; content: string }) => [
        d.type,
        d.filename,
        d.size,
        d.content,
      ]),
    ).toEqual([
      ['resume', `${person.family}-cv.pdf`, person.documents[0]!.length, person.documents[0]!.toString('base64')],
      [
        'cover_letter',
        `${person.family}-letter.txt`,
        person.documents[1]!.length,
        person.documents[1]!.toString('base64'),
      ],
    ]);
    expect(resumes).toEqual([]);
    // Another tenant's key cannot export it.
    expect((await api.get(`/candidates/${id}/export`, GLOBEX_KEY)).status).toBe(404);
  });
});

describe('erasing one person never changes what another person or tenant can read (property)', () => {
  it('holds for random sets of applicants across two tenants', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ tenant: fc.constantFrom(1, 2), applications: fc.integer({ min: 1, max: 3 }) }), {
          minLength: 2,
          maxLength: 5,
        }),
        fc.nat(),
        async (people, pick) => {
          const keyOf = (tenantId: number) => (tenantId === 1 ? ACME_KEY : GLOBEX_KEY);
          const created: Array<{ tenant: number; candidateId: number }> = [];
          for (const spec of people) {
            const person = newPerson();
            let candidateId = 0;
            for (let index = 0; index < spec.applications; index++) {
              const slug = spec.tenant === 1 ? ['engineer', 'designer', 'writer'][index]! : 'engineer';
              candidateId = (await apply(person, slug, keyOf(spec.tenant))).body.data.candidate.id;
            }
            created.push({ tenant: spec.tenant, candidateId });
          }
          const victim = created[pick % created.length]!;
          const others = created.filter((entry) => entry !== victim);
          const read = async () => ({
            exports: await Promise.all(
              others.map(
                async (entry) => (await api.get(`/candidates/${entry.candidateId}/export`, keyOf(entry.tenant))).text,
              ),
            ),
            // Entries without their cursors (sealed afresh on every answer).
            globexFeed: (
              (await api.get('/changes?limit=1000', GLOBEX_KEY)).body.data as Array<Record<string, unknown>>
            ).map(({ cursor: _cursor, ...entry }) => entry),
          });
          const before = await read();
          expect((await erase(victim.candidateId, keyOf(victim.tenant))).status).toBe(204);
          const after = await read();
          expect(after.exports).toEqual(before.exports);
          // The other tenant's feed only changes when its own candidate was erased.
          if (victim.tenant === 1) expect(after.globexFeed).toEqual(before.globexFeed);
        },
      ),
      { numRuns: 6 },
    );
  });
});
