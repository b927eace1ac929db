import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openOrm } from '@careers/core';
import { createTestDatabase, sweepExpiredIdempotencyRecords } from '@careers/core/testing';
type TOrm = Awaited<ReturnType<typeof openOrm>>;
import { startTestApi, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import {
  applicationBody,
  base64Of,
  keyRing,
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
const HIDDEN = `hidden-${s}`;
const DOMAIN = `careers.idem-${s}.example`;
// Keys 0–9 belong to single tests, 10–39 rotate (each request under the per-key limit), 40–49 are handed out
// once, 50–79 serve the property test. An idempotency key is scoped to one API key, so a retry reuses its key.
const pool = keys(500, 80, ['applications:write', 'vacancies:write']);
const nextKey = keyRing(pool.slice(10, 40));
let taken = 40;
const ownKey = (): TKeySpec => pool[taken++]!;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      tenant(`idem-${s}`, {
        api_keys: pool.map((k) => ({ ...k, name: `key ${k.id}` })),
        vacancies: [vacancy(1, VACANCY, { title: 'Idempotent job' }), vacancy(2, HIDDEN, { status: 'draft' })],
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

const idem = (key: string) => ({ 'idempotency-key': key });
const apply = (body: unknown, idempotencyKey: string | undefined, key: string) =>
  api.post('/applications', body, key, idempotencyKey === undefined ? {} : idem(idempotencyKey));
const applicationCount = async (email: string) =>
  (
    await query(
      databaseUrl,
      'select count(*)::int as n from applications a join candidates c on c.id = a.candidate_id where c.email = $1',
      [email],
    )
  )[0]!.n;
const emailOf = (body: Record<string, unknown>) => (body.candidate as { email: string }).email;

describe('Idempotency-Key on POST /applications', () => {
  it('replays the first response for a retry with the same key and body, without a second application', async () => {
    const key = nextKey();
    const body = applicationBody(VACANCY, {
      documents: { resume: { filename: 'cv.pdf', content: base64Of(2000).content, mime_type: 'application/pdf' } },
    });
    const idempotencyKey = `order-${suffix()}`;
    const first = await apply(body, idempotencyKey, key);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await apply(body, idempotencyKey, key);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await applicationCount(emailOf(body))).toBe(1);
  });

  it('treats the same JSON with another key order or spacing as the same body', async () => {
    const body = applicationBody(VACANCY, { privacy_policy_accepted: true });
    const reordered = `{ "privacy_policy_accepted": true,\n "candidate": ${JSON.stringify(Object.fromEntries(Object.entries(body.candidate as object).reverse()))}, "vacancy": "${VACANCY}" }`;
    const idempotencyKey = suffix();
    const key = nextKey();
    const first = await apply(body, idempotencyKey, key);
    const second = await apply(reordered, idempotencyKey, key);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await applicationCount(emailOf(body))).toBe(1);
  });

  it('answers 422 errors.idempotency_key for the same key with another body, and changes nothing', async () => {
    const body = applicationBody(VACANCY);
    const idempotencyKey = suffix();
    const key = nextKey();
    expect((await apply(body, idempotencyKey, key)).status).toBe(201);
    const other = applicationBody(VACANCY);
    const response = await apply(other, idempotencyKey, key);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      message: 'The given data was invalid.',
      errors: { idempotency_key: ['The idempotency key has already been used with a different request.'] },
    });
    expect(await applicationCount(emailOf(other))).toBe(0);
  });

  it('scopes keys to the API key and to the operation', async () => {
    const body = applicationBody(VACANCY);
    const idempotencyKey = suffix();
    const a = await apply(body, idempotencyKey, pool[1]!.key);
    const b = await apply(body, idempotencyKey, pool[2]!.key);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.data.id).not.toBe(a.body.data.id);
    expect(await applicationCount(emailOf(body))).toBe(2);
    // The same key on another operation is another key.
    const canonical = await api.post(
      `/vacancies/${VACANCY}/canonical-url`,
      { url: `https://${DOMAIN}/x` },
      pool[1]!.key,
      idem(idempotencyKey),
    );
    expect(canonical.status).toBe(200);
  });

  it('without the header every request is a new application', async () => {
    const body = applicationBody(VACANCY);
    await apply(body, undefined, nextKey());
    await apply(body, undefined, nextKey());
    expect(await applicationCount(emailOf(body))).toBe(2);
  });

  it('checks the key format: 1–255 printable ASCII characters', async () => {
    const body = applicationBody(VACANCY);
    const invalid = {
      message: 'The given data was invalid.',
      errors: { idempotency_key: ['The idempotency key must be 1 to 255 printable ASCII characters.'] },
    };
    for (const bad of ['x'.repeat(256), 'caf\u00e9-key', '']) {
      const response = await apply(body, bad, nextKey());
      expect(response.status, JSON.stringify(bad)).toBe(422);
      expect(response.body).toEqual(invalid);
    }
    expect(await applicationCount(emailOf(body))).toBe(0);
    const longest = await apply(body, `${'k'.repeat(250)} ~!@#`, nextKey());
    expect(longest.status).toBe(201);
  });

  it('runs after the rate limit: replays count, and an exhausted key is limited even for a replay', async () => {
    const { key } = ownKey();
    const body = applicationBody(VACANCY);
    const idempotencyKey = suffix();
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await apply(body, idempotencyKey, key);
      expect(response.status).toBe(201);
      remaining.push(rateHeaders(response).remaining ?? '');
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const limited = await apply(body, idempotencyKey, key);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Too Many Attempts.' });
    expect(await applicationCount(emailOf(body))).toBe(1);
  });

  it('runs before validation: the key format is checked even for an invalid body, and a 422 is not kept', async () => {
    const idempotencyKey = suffix();
    const key = nextKey();
    const invalid = { vacancy: VACANCY, candidate: { given_name: 'A', family_name: 'B', email: 'nope' } };
    expect((await apply(invalid, idempotencyKey, key)).status).toBe(422);
    // A corrected body may use the same key: a validation failure had no effect and was not kept.
    const fixed = applicationBody(VACANCY);
    const response = await apply(fixed, idempotencyKey, key);
    expect(response.status, response.text).toBe(201);
    expect((await apply(fixed, idempotencyKey, key)).body).toEqual(response.body);
  });

  it('keeps and replays a business-rule answer (404) for the same body', async () => {
    const idempotencyKey = suffix();
    const body = applicationBody(HIDDEN);
    const key = nextKey();
    const first = await apply(body, idempotencyKey, key);
    expect(first.status).toBe(404);
    expect(first.body).toEqual({ message: 'Vacancy not found', error: 'VACANCY_NOT_FOUND' });
    const second = await apply(body, idempotencyKey, key);
    expect(second.status).toBe(404);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not keep a server error: the retry runs again (the failed attempt left nothing behind)', async () => {
    await query(
      databaseUrl,
      `create or replace function fail_once() returns trigger language plpgsql as $$
       begin if new.filename = 'flaky.pdf' then raise exception 'flaky storage'; end if; return new; end $$`,
    );
    await query(
      databaseUrl,
      'create trigger documents_flaky before insert on documents for each row execute function fail_once()',
    );
    const idempotencyKey = suffix();
    const body = applicationBody(VACANCY, {
      documents: { resume: { filename: 'flaky.pdf', content: 'YWJj', mime_type: 'application/pdf' } },
    });
    const key = nextKey();
    try {
      const failed = await apply(body, idempotencyKey, key);
      expect(failed.status).toBe(500);
      expect(
        await query(databaseUrl, 'select count(*)::int as n from idempotency_records where key = $1', [idempotencyKey]),
      ).toEqual([{ n: 0 }]);
    } finally {
      await query(databaseUrl, 'drop trigger documents_flaky on documents');
    }
    const retried = await apply(body, idempotencyKey, key);
    expect(retried.status, retried.text).toBe(201);
    expect(await applicationCount(emailOf(body))).toBe(1);
  });

  it('concurrent requests with one key have one effect and all get the same answer', async () => {
    const body = applicationBody(VACANCY, {
      documents: { resume: { filename: 'cv.pdf', content: base64Of(200_000).content, mime_type: 'application/pdf' } },
    });
    const idempotencyKey = suffix();
    const responses = await Promise.all(Array.from({ length: 8 }, () => apply(body, idempotencyKey, pool[3]!.key)));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(7);
    expect(await applicationCount(emailOf(body))).toBe(1);
  });

  it('concurrent requests with one key and different bodies: one effect, the rest 422', async () => {
    const idempotencyKey = suffix();
    const bodies = Array.from({ length: 6 }, () => applicationBody(VACANCY));
    const responses = await Promise.all(bodies.map((body) => apply(body, idempotencyKey, pool[4]!.key)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 422 && r.body.errors.idempotency_key)).toHaveLength(5);
    const counts = await Promise.all(bodies.map((body) => applicationCount(emailOf(body))));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('ignores an expired key (and replaces its record), and sweeps expired records', async () => {
    const idempotencyKey = suffix();
    const first = applicationBody(VACANCY);
    const key = nextKey();
    expect((await apply(first, idempotencyKey, key)).status).toBe(201);
    const [record] = await query(
      databaseUrl,
      'select extract(epoch from expires_at - created_at)::int as ttl from idempotency_records where key = $1',
      [idempotencyKey],
    );
    expect(record!.ttl).toBe(24 * 3600);
    await query(databaseUrl, "update idempotency_records set expires_at = now() - interval '1 second' where key = $1", [
      idempotencyKey,
    ]);
    const second = applicationBody(VACANCY);
    const response = await apply(second, idempotencyKey, key);
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(await applicationCount(emailOf(second))).toBe(1);
    expect(
      await query(databaseUrl, 'select count(*)::int as n from idempotency_records where key = $1', [idempotencyKey]),
    ).toEqual([{ n: 1 }]);

    await query(databaseUrl, "update idempotency_records set expires_at = now() - interval '1 hour' where key = $1", [
      idempotencyKey,
    ]);
    const live = (
      await query(databaseUrl, 'select count(*)::int as n from idempotency_records where expires_at > now()')
    )[0]!.n;
    expect(await sweepExpiredIdempotencyRecords(orm.em.fork())).toBeGreaterThanOrEqual(1);
    expect(
      await query(databaseUrl, 'select count(*)::int as n from idempotency_records where expires_at <= now()'),
    ).toEqual([{ n: 0 }]);
    expect((await query(databaseUrl, 'select count(*)::int as n from idempotency_records'))[0]!.n).toBe(live);
  });

  it('property: any sequence of (key, body) requests has one effect per key, with replays equal to the first answer', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 1 })), {
          minLength: 1,
          maxLength: 8,
        }),
        async (steps) => {
          const run = suffix();
          const keyOf = (index: number) => pool[50 + ((runs * 3 + index) % 30)]!.key;
          runs++;
          const bodies = [applicationBody(VACANCY), applicationBody(VACANCY)];
          const firstAnswer = new Map<number, { body: number; text: string }>();
          for (const [keyIndex, bodyIndex] of steps) {
            const response = await apply(bodies[bodyIndex], `${run}-${keyIndex}`, keyOf(keyIndex));
            const first = firstAnswer.get(keyIndex);
            if (!first) {
              expect(response.status).toBe(201);
              firstAnswer.set(keyIndex, { body: bodyIndex, text: response.text });
            } else if (first.body === bodyIndex) {
              expect(response.status).toBe(201);
              expect(response.text).toBe(first.text);
            } else {
              expect(response.status).toBe(422);
            }
          }
          const effects = (await Promise.all(bodies.map((body) => applicationCount(emailOf(body))))).reduce(
            (a, b) => a + b,
            0,
          );
          expect(effects).toBe(firstAnswer.size);
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe('Idempotency-Key on POST /applications, stored by the application statement itself', () => {
  // Every insert and update of a record, in order: how the record got its response.
  const recordWrites = async (idempotencyKey: string) =>
    query(databaseUrl, 'select op, status from idem_record_writes where key = $1 order by id', [idempotencyKey]);
  beforeAll(async () => {
    await query(databaseUrl, 'create table idem_record_writes (id serial primary key, key text, op text, status int)');
    await query(
      databaseUrl,
      `create function idem_record_write() returns trigger language plpgsql as $$
       begin insert into idem_record_writes (key, op, status) values (new.key, tg_op, new.response_status); return new; end $$`,
    );
    await query(
      databaseUrl,
      'create trigger idem_record_writes after insert or update on idempotency_records for each row execute function idem_record_write()',
    );
  });
  afterAll(async () => {
    await query(databaseUrl, 'drop trigger idem_record_writes on idempotency_records');
  });

  it('an application to an open vacancy inserts its record already answered (one statement); a closed one goes through the key transaction', async () => {
    const key = nextKey();
    const open = `open-${suffix()}`;
    const first = await apply(applicationBody(VACANCY), open, key);
    expect(first.status, first.text).toBe(201);
    expect(await recordWrites(open)).toEqual([{ op: 'INSERT', status: 201 }]);
    const [stored] = await query(
      databaseUrl,
      'select response_status, response_body from idempotency_records where key = $1',
      [open],
    );
    expect(stored).toEqual({ response_status: 201, response_body: first.text });

    // A vacancy the one statement cannot take (not visible: a 404 to keep) is answered in the key's transaction.
    const hidden = `hidden-${suffix()}`;
    expect((await apply(applicationBody(HIDDEN), hidden, key)).status).toBe(404);
    expect(await recordWrites(hidden)).toEqual([
      { op: 'INSERT', status: null },
      { op: 'UPDATE', status: 404 },
    ]);
  });

  it('answers as an application without a key does, with the creation time of the stored application', async () => {
    const key = nextKey();
    const body = applicationBody(VACANCY, {
      documents: { resume: { filename: 'cv.pdf', content: base64Of(300).content, mime_type: 'application/pdf' } },
    });
    const withKey = await apply(body, suffix(), key);
    expect(withKey.status, withKey.text).toBe(201);
    const withoutKey = await apply(
      { ...body, candidate: { ...(body.candidate as object), email: `other.${suffix()}@example.org` } },
      undefined,
      key,
    );
    const { id, candidate, created_at, consents, ...rest } = withKey.body.data;
    const {
      id: otherId,
      candidate: otherCandidate,
      created_at: otherCreatedAt,
      consents: otherConsents,
      ...otherRest
    } = withoutKey.body.data;
    expect(Object.keys(withKey.body.data)).toEqual(Object.keys(withoutKey.body.data));
    expect(rest).toEqual(otherRest);
    // Consents are given with the application: at its creation time.
    expect(consents).toEqual({ ...otherConsents, given_at: created_at });
    expect(otherConsents.given_at).toBe(otherCreatedAt);
    expect(Object.keys(candidate)).toEqual(Object.keys(otherCandidate));
    expect(typeof id).toBe('number');
    expect(otherId).toBeGreaterThan(id);
    expect(otherCreatedAt >= created_at).toBe(true);
    const [row] = await query(
      databaseUrl,
      'select a.created_at, a.candidate_id, c.email from applications a join candidates c on c.id = a.candidate_id where a.id = $1',
      [id],
    );
    expect(created_at).toBe((row!.created_at as Date).toISOString());
    expect(candidate).toEqual({
      id: row!.candidate_id,
      given_name: 'Ada',
      family_name: (body.candidate as { family_name: string }).family_name,
      email: row!.email,
    });
  });

  it('property: the first answer and its replay are the same bytes and echo the text exactly, whatever the text', async () => {
    // Quotes, backslashes, control and line-separator characters, astral characters, and text that looks like markup.
    const special = fc.constantFrom('"', '\\', '\n', '\t', '\u0001', '\u2028', '😀', '</script>', 'splice-', '%s', "'");
    const text = fc
      .array(fc.oneof(special, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 })), {
        minLength: 1,
        maxLength: 8,
      })
      .map((parts) => `x${parts.join('')}`);
    await fc.assert(
      fc.asyncProperty(text, text, text, async (title, givenName, filename) => {
        await query(databaseUrl, 'update vacancies set title = $1 where slug = $2', [title, VACANCY]);
        const key = nextKey();
        const idempotencyKey = suffix();
        const body = applicationBody(VACANCY, {
          candidate: { given_name: givenName, family_name: 'Doe', email: `p.${suffix()}@example.org` },
          documents: { resume: { filename, content: 'YWJj', mime_type: 'application/pdf' } },
        });
        const first = await apply(body, idempotencyKey, key);
        expect(first.status, first.text).toBe(201);
        expect(first.body.data.vacancy.title).toBe(title);
        expect(first.body.data.candidate.given_name).toBe(givenName.trim());
        expect(first.body.data.documents[0].filename).toBe(filename.trim());
        const replay = await apply(body, idempotencyKey, key);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.text).toBe(first.text);
      }),
      { numRuns: 25 },
    );
    await query(databaseUrl, 'update vacancies set title = $1 where slug = $2', ['Idempotent job', VACANCY]);
  });
});

describe('Idempotency-Key on POST /vacancies/{slug}/canonical-url', () => {
  it('replays the confirmation and refuses another URL under the same key', async () => {
    const idempotencyKey = suffix();
    const key = nextKey();
    const first = await api.post(
      `/vacancies/${VACANCY}/canonical-url`,
      { url: `https://${DOMAIN}/a` },
      key,
      idem(idempotencyKey),
    );
    expect(first.status).toBe(200);
    const replay = await api.post(
      `/vacancies/${VACANCY}/canonical-url`,
      { url: `https://${DOMAIN}/a` },
      key,
      idem(idempotencyKey),
    );
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await api.post(
      `/vacancies/${VACANCY}/canonical-url`,
      { url: `https://${DOMAIN}/b` },
      key,
      idem(idempotencyKey),
    );
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.errors)).toEqual(['idempotency_key']);
    expect((await query(databaseUrl, 'select canonical_url from vacancies where id = 1'))[0]!.canonical_url).toBe(
      `https://${DOMAIN}/a`,
    );
  });
});
