import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf, tenantKysely } from '../src/db/kysely.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import {
  findVisibleVacancy,
  storeApplication,
  storeApplicationIfOpen,
  storeClaimedApplicationIfOpen,
  vacancyReference,
  type TNewApplication,
} from '../src/modules/applications/application.repository.ts';
import { IdempotencyClaim, isClaimConflict } from '../src/modules/idempotency/idempotency-claim.ts';
import { sql } from 'kysely';
import { iso, isoText } from '../src/lib/dates.ts';

/**
 * The one-statement submission (storeApplicationIfOpen) against the two-statement one it shortcuts (findVisibleVacancy,
 * then storeApplication): the same vacancy, the same rows, and nothing stored for a vacancy with something to check.
 */

const vacancy = (id: number, slug: string, extra: Record<string, unknown> = {}) => ({
  id,
  slug,
  title: `Job ${slug}`,
  summary: null,
  description: null,
  requirements: null,
  offer: null,
  language: 'en',
  status: 'published',
  channels: ['api'],
  published_at: '2026-01-01T00:00:00Z',
  ...extra,
});

const document = {
  tenants: [
    {
      id: 1,
      slug: 'acme',
      name: 'Acme',
      api_keys: [{ id: 1, name: 'site', key: `ck_test_${'a'.repeat(32)}`, scopes: ['applications:write'] }],
      vacancies: [
        vacancy(1, 'open'),
        vacancy(2, 'closed', { accepts_applications: false }),
        vacancy(3, 'asks', { questions: [{ key: 'why', label: { en: 'Why?' }, type: 'text' }] }),
        // A slug of digits names this vacancy before the vacancy whose id it is.
        vacancy(4, '5'),
        vacancy(5, 'five'),
        vacancy(6, 'draft', { status: 'draft' }),
      ],
    },
    { id: 2, slug: 'globex', name: 'Globex', duplicate_applications: 'reject', vacancies: [vacancy(11, 'strict')] },
  ],
};

let orm: MikroORM;
/**
 * Statements sent on the ORM's pool since the last reset, not counting the BEGIN and COMMIT the connection layer wraps
 * around a stand-alone write (db/fresh-connection.ts: so that a write cut off before its COMMIT may run again).
 */
let statements = 0;
const isTransactionControl = (config: unknown) => typeof config === 'string' && /^\s*(begin|commit)\s*$/i.test(config);

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  await importTenantDocument({ em: orm.em }, document);
  const pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
  const counted = new WeakSet<object>();
  pool.on('acquire', (client) => {
    if (counted.has(client)) return;
    counted.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (!isTransactionControl(args[0])) statements++;
      return query(...args);
    };
  });
});
afterAll(async () => orm?.close());

type TApplicationData = Omit<TNewApplication, 'vacancyId' | 'answers'>;

const text = (max: number) =>
  fc.string({ minLength: 1, maxLength: max }).filter((value) => !value.includes('\u0000') && value.isWellFormed());
const applicationData: fc.Arbitrary<TApplicationData> = fc.record({
  tenantId: fc.constant(1),
  apiKeyId: fc.constant(null as unknown as number),
  candidate: fc.record({
    givenName: text(20),
    familyName: text(20),
    email: fc.emailAddress(),
    phone: fc.option(text(15), { nil: null }),
    linkedinUrl: fc.option(fc.webUrl(), { nil: null }),
  }),
  consents: fc.record({
    processing: fc.boolean(),
    talentPool: fc.boolean(),
    policyVersion: fc.option(text(20), { nil: null }),
  }),
  privacyPolicyAccepted: fc.boolean(),
  ipAddress: fc.option(fc.ipV4(), { nil: null }),
  userAgent: fc.option(text(30), { nil: null }),
  referrer: fc.option(fc.webUrl(), { nil: null }),
  documents: fc.array(
    fc.record({
      type: fc.constantFrom('resume' as const, 'cover_letter' as const, 'additional' as const),
      position: fc.nat(4),
      filename: text(20),
      mimeType: fc.constantFrom('application/pdf', 'text/plain'),
      content: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    }),
    { maxLength: 3 },
  ),
});

/** What one application stored, without its ids, times and the random part of a new candidate's slug. */
async function storedRows(applicationId: number) {
  const db = kyselyOf(orm.em.fork());
  const application = await db
    .selectFrom('applications')
    .selectAll()
    .where('id', '=', applicationId)
    .executeTakeFirstOrThrow();
  const candidate = await db
    .selectFrom('candidates')
    .selectAll()
    .where('id', '=', application.candidate_id)
    .executeTakeFirstOrThrow();
  const documents = await db
    .selectFrom('documents')
    .selectAll()
    .where('application_id', '=', applicationId)
    .orderBy('id')
    .execute();
  const events = await db
    .selectFrom('events')
    .selectAll()
    .where('object', '=', 'application')
    .where('object_id', '=', String(applicationId))
    .execute();
  const {
    id: _a,
    candidate_id: _c,
    created_at,
    updated_at: _u,
    privacy_policy_accepted_at,
    ...applicationRow
  } = application as Record<string, unknown>;
  return {
    application: {
      ...applicationRow,
      consentAtCreation:
        privacy_policy_accepted_at === null ? null : String(privacy_policy_accepted_at) === String(created_at),
    },
    candidate: {
      ...candidate,
      id: undefined,
      created_at: undefined,
      updated_at: undefined,
      slug: String(candidate.slug).replace(/-[0-9a-f]{8}$/, ''),
    },
    documents: documents.map(({ id: _d, application_id: _ap, created_at: _dc, ...row }) => row),
    // writer_xact: the writing transaction, known to the commit-order sequencing only (not in the entity types).
    events: (events as Array<(typeof events)[number] & { writer_xact?: unknown }>).map(
      ({ seq: _s, id: _e, position: _p, occurred_at: _o, object_id: _oi, writer_xact: _x, data, ...row }) => ({
        ...row,
        data: { ...(data as object), id: undefined, candidate_id: undefined },
      }),
    ),
  };
}

describe('the one-statement submission', () => {
  it('property: stores, in one statement, the rows the two-statement submission stores', async () => {
    const db = tenantKysely(orm.em.fork(), 1);
    await fc.assert(
      fc.asyncProperty(applicationData, async (data) => {
        statements = 0;
        const row = await storeApplicationIfOpen(db, 1, vacancyReference('open')!, data);
        expect(statements).toBe(1);
        expect(row).toMatchObject({
          id: 1,
          slug: 'open',
          title: 'Job open',
          accepts_applications: true,
          questions: [],
          duplicate_applications: 'allow',
        });
        const found = await findVisibleVacancy(db, 1, 'open');
        const twoStatements = await storeApplication(db, { ...data, tenantId: 1, vacancyId: found!.id, answers: {} });
        expect(row!.candidate_id).toBe(twoStatements.candidate_id);
        expect(await storedRows(row!.application_id!)).toEqual(await storedRows(twoStatements.id));
      }),
      { numRuns: 25 },
    );
  });

  it('stores nothing for a vacancy with something left to check, and returns it as findVisibleVacancy finds it', async () => {
    const data = fc.sample(applicationData, { numRuns: 1, seed: 7 })[0]!;
    const counts = async () => {
      const db = kyselyOf(orm.em.fork());
      const count = async (table: 'applications' | 'candidates' | 'documents' | 'events') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return [await count('applications'), await count('candidates'), await count('documents'), await count('events')];
    };
    const before = await counts();
    for (const [tenantId, reference] of [
      [1, 'closed'],
      [1, 'asks'],
      [2, 'strict'],
    ] as const) {
      const db = tenantKysely(orm.em.fork(), tenantId);
      const row = await storeApplicationIfOpen(db, tenantId, vacancyReference(reference)!, data);
      const { application_id, created_at, candidate_id, ...found } = row!;
      expect([application_id, created_at, candidate_id]).toEqual([null, null, null]);
      expect(found).toEqual(await findVisibleVacancy(db, tenantId, reference));
    }
    expect(await counts()).toEqual(before);
  });

  it('finds the vacancy findVisibleVacancy finds: a slug of digits before the id, none for a draft, another tenant or an unusable reference', async () => {
    const db = tenantKysely(orm.em.fork(), 1);
    const cases: Array<[number | string, string | undefined]> = [
      ['5', '5'],
      [5, 'five'],
      ['4', '5'],
      ['draft', undefined],
      ['strict', undefined],
      ['missing', undefined],
      [0, undefined],
      [2 ** 31, undefined],
      ['9'.repeat(11), undefined],
    ];
    for (const [reference, slug] of cases) {
      expect((await findVisibleVacancy(db, 1, reference))?.slug, String(reference)).toBe(slug);
    }
    expect(vacancyReference('bad\u0000slug')).toBeUndefined();
    expect(vacancyReference('\ud800')).toBeUndefined();
  });
});

describe('the one-statement submission with an Idempotency-Key', () => {
  let keys = 0;
  const claimOf = () =>
    new IdempotencyClaim({
      apiKeyId: 1,
      operation: 'applications.create',
      key: `k-${keys++}`,
      hash: 'h',
      status: 201,
      headers: '{"X-Kept":"yes"}',
    });
  /** A response with every marker the statement splices, beside text of the request's own. */
  const templateOf = (claim: IdempotencyClaim) =>
    claim.render({
      data: {
        id: claim.marker('application_id'),
        vacancy: { id: claim.marker('id'), slug: claim.marker('slug'), title: claim.marker('title') },
        candidate: { id: claim.marker('candidate_id'), note: `"splice-\\ ${claim.values.key}` },
        created_at: claim.dateMarker('created_at'),
      },
    });
  const recordOf = async (key: string) =>
    kyselyOf(orm.em.fork()).selectFrom('idempotency_records').selectAll().where('key', '=', key).executeTakeFirst();

  it('property: stores the rows the statement without a key stores, and the record with the response, in one statement', async () => {
    const db = tenantKysely(orm.em.fork(), 1);
    await fc.assert(
      fc.asyncProperty(applicationData, async (data) => {
        const claim = claimOf();
        statements = 0;
        const body = await storeClaimedApplicationIfOpen(db, 1, vacancyReference('open')!, data, {
          values: claim.values,
          template: templateOf(claim),
        });
        expect(statements).toBe(1);
        const response = claim.accept(body!) as { data: { id: number; candidate: { id: number }; created_at: string } };
        const application = await kyselyOf(orm.em.fork())
          .selectFrom('applications')
          .selectAll()
          .where('id', '=', response.data.id)
          .executeTakeFirstOrThrow();
        expect(response).toEqual({
          data: {
            id: application.id,
            vacancy: { id: 1, slug: 'open', title: 'Job open' },
            candidate: { id: application.candidate_id, note: `"splice-\\ ${claim.values.key}` },
            created_at: iso(application.created_at),
          },
        });
        const record = await recordOf(claim.values.key);
        expect(record).toMatchObject({
          api_key_id: 1,
          operation: 'applications.create',
          request_hash: 'h',
          response_status: 201,
          response_body: body,
          response_headers: { 'X-Kept': 'yes' },
        });
        const withoutKey = await storeApplicationIfOpen(db, 1, vacancyReference('open')!, data);
        expect(await storedRows(response.data.id)).toEqual(await storedRows(withoutKey!.application_id!));
      }),
      { numRuns: 20 },
    );
  });

  it('stores nothing when the key has a record (an expired one too), or the vacancy has something left to check', async () => {
    const data = fc.sample(applicationData, { numRuns: 1, seed: 11 })[0]!;
    const db = tenantKysely(orm.em.fork(), 1);
    const claim = claimOf();
    const claimed = { values: claim.values, template: templateOf(claim) };
    expect(await storeClaimedApplicationIfOpen(db, 1, vacancyReference('open')!, data, claimed)).toBeDefined();
    const count = async () =>
      Number(
        (
          await kyselyOf(orm.em.fork())
            .selectFrom('applications')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(await storeClaimedApplicationIfOpen(db, 1, vacancyReference('open')!, data, claimed)).toBeUndefined();
    await kyselyOf(orm.em.fork())
      .updateTable('idempotency_records')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('key', '=', claim.values.key)
      .execute();
    expect(await storeClaimedApplicationIfOpen(db, 1, vacancyReference('open')!, data, claimed)).toBeUndefined();
    const other = claimOf();
    expect(
      await storeClaimedApplicationIfOpen(db, 1, vacancyReference('closed')!, data, {
        values: other.values,
        template: templateOf(other),
      }),
    ).toBeUndefined();
    expect(await recordOf(other.values.key)).toBeUndefined();
    expect(await count()).toBe(before);
  });

  it('fails as a claim conflict, storing nothing, when a concurrent request commits the key first', async () => {
    const data = fc.sample(applicationData, { numRuns: 1, seed: 12 })[0]!;
    const claim = claimOf();
    const count = async () =>
      Number(
        (
          await kyselyOf(orm.em.fork())
            .selectFrom('applications')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const first = orm.em.fork();
    let second: Promise<unknown> | undefined;
    await first.getConnection('write').transactional(async (context) => {
      const tx = first.fork();
      tx.setTransactionContext(context);
      await kyselyOf(tx)
        .insertInto('idempotency_records')
        .values({
          api_key_id: 1,
          operation: 'applications.create',
          key: claim.values.key,
          request_hash: 'h',
          expires_at: sql<Date>`now() + interval '1 hour'`,
        } as never)
        .execute();
      // The second request's statement runs while the first holds its uncommitted record: it waits on the key.
      second = storeClaimedApplicationIfOpen(tenantKysely(orm.em.fork(), 1), 1, vacancyReference('open')!, data, {
        values: claim.values,
        template: templateOf(claim),
      }).then(
        () => 'stored',
        (error: unknown) => (isClaimConflict(error) ? 'conflict' : error),
      );
      const waiting = sql<{
        n: number;
      }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      for (
        let attempt = 0;
        attempt < 100 && (await waiting.execute(kyselyOf(orm.em.fork()))).rows[0]!.n === 0;
        attempt++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    expect(await second).toBe('conflict');
    expect(await count()).toBe(before);
  });

  it('property: isoText formats a timestamp as iso() formats the Date pg reads from it', async () => {
    const db = kyselyOf(orm.em.fork());
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: 253_402_300_799_999_999n }), async (micros) => {
        const { text, date } = await sql<{
          text: string;
          date: Date;
        }>`select ${isoText(sql`t`)} as text, t as date from (select to_timestamp(0) + (${String(micros)} || ' microseconds')::interval as t) v`
          .execute(db)
          .then((result) => result.rows[0]!);
        expect(text).toBe(iso(date));
      }),
      { numRuns: 200 },
    );
  });
});
