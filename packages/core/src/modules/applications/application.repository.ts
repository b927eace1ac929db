import { randomBytes } from 'node:crypto';
import { sql, type Compilable, type Expression } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import { StatementTemplate } from '../../db/fast-path/index.ts';
import type { DOCUMENT_TYPES } from './application.entity.ts';
import { visibleVacancy } from '../vacancies/vacancy-visibility.ts';
import { isStorableId } from '../../lib/query.ts';
import { isStorableText } from '../../lib/validation.ts';
import type { TVacancyQuestion } from '../vacancies/vacancy-question.ts';
import type { TDuplicateApplicationPolicy } from '../tenants/tenant.entity.ts';
import type { TClaimValues } from '../idempotency/idempotency-claim.ts';
import { insertClaimedRecord, recordAbsent, splicedBody } from '../idempotency/idempotency.repository.ts';
import { isoText } from '../../lib/dates.ts';

export type TVacancyRef = {
  id: number;
  slug: string;
  title: string;
  accepts_applications: boolean;
  questions: TVacancyQuestion[];
  /** The tenant's setting, read with the vacancy (one round trip for both). */
  duplicate_applications: TDuplicateApplicationPolicy;
};

/** What finds the vacancy an application names: a slug, an id, or both (a string of digits is tried as both). */
export type TVacancyReference = { slug: string | null; id: number | null };

/**
 * The reference of an application's `vacancy`: a JSON integer is an id; a string is a slug and, when it is digits, an
 * id as well (the slug wins). Undefined when it can name no stored vacancy (answered 404 without a query).
 */
export function vacancyReference(vacancy: number | string): TVacancyReference | undefined {
  if (typeof vacancy === 'number') return isStorableId(vacancy) ? { slug: null, id: vacancy } : undefined;
  // No stored slug holds NUL or an unpaired surrogate (PostgreSQL would refuse the first as a parameter).
  if (!isStorableText(vacancy)) return undefined;
  const id = /^\d{1,10}$/.test(vacancy) ? Number(vacancy) : 0;
  return { slug: vacancy, id: isStorableId(id) ? id : null };
}

/** The visible vacancy of a reference (a slug match before an id match) with its tenant's duplicate policy. */
function selectVisibleVacancy(db: TDb, reference: TVacancyReference) {
  return db
    .selectFrom('vacancies')
    .innerJoin('tenants', 'tenants.id', 'vacancies.tenant_id')
    .select([
      'vacancies.id',
      'vacancies.slug',
      'vacancies.title',
      'vacancies.accepts_applications',
      'vacancies.questions',
      'tenants.duplicate_applications',
    ])
    .where(visibleVacancy('vacancies'))
    .where((eb) =>
      eb.or([eb('vacancies.slug', '=', reference.slug as string), eb('vacancies.id', '=', reference.id as number)]),
    )
    .orderBy(sql`(${sql.ref('vacancies.slug')} = ${reference.slug}) is true`, 'desc')
    .limit(1);
}

const visibleVacancyByReference = new StatementTemplate<TVacancyReference, TVacancyRef>((db, arg) =>
  selectVisibleVacancy(db, { slug: arg((args) => args.slug), id: arg((args) => args.id) }),
);

/** The visible vacancy an application names (see vacancyReference), in one query. */
export async function findVisibleVacancy(
  db: TDb,
  tenantId: number,
  vacancy: number | string,
): Promise<TVacancyRef | undefined> {
  const reference = vacancyReference(vacancy);
  return reference ? (await visibleVacancyByReference.execute(db, reference, tenantId))[0] : undefined;
}

export type TCandidateRow = { id: number; first_name: string; last_name: string; email: string | null };

export type TNewCandidate = {
  givenName: string;
  familyName: string;
  email: string;
  phone: string | null;
  linkedinUrl: string | null;
};

function slugBase(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
    .replace(/-+$/, '');
  return slug || 'candidate';
}

/** A new candidate's slug, and the one it takes when that is taken (a clash of both is not a practical concern). */
function candidateSlugs(candidate: TNewCandidate): { firstSlug: string; secondSlug: string } {
  const base = slugBase(`${candidate.givenName} ${candidate.familyName}`);
  const random = randomBytes(8).toString('hex');
  return { firstSlug: `${base}-${random.slice(0, 8)}`, secondSlug: `${base}-${random.slice(8)}` };
}

/**
 * Holds, until the transaction ends, the lock on (tenant, vacancy, lower(email)): a concurrent application with
 * the same vacancy and email, in any process, waits here and then finds this one's row.
 */
export async function lockApplicationsOf(db: TDb, tenantId: number, vacancyId: number, email: string): Promise<void> {
  const key = sql`'application:' || ${tenantId}::text || ':' || ${vacancyId}::text || ':' || lower(${email}::text)`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db);
}

/** The first application to the vacancy by a candidate with this email (case-insensitive). */
export async function findApplicationByEmail(db: TDb, vacancyId: number, email: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('applications')
    .innerJoin('candidates', 'candidates.id', 'applications.candidate_id')
    .select('applications.id')
    .where('applications.vacancy_id', '=', vacancyId)
    .where((eb) => eb(eb.fn('lower', ['candidates.email']), '=', eb.fn('lower', [eb.val(email)])))
    .orderBy('applications.id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export type TNewDocument = {
  type: (typeof DOCUMENT_TYPES)[number];
  position: number;
  filename: string;
  mimeType: string;
  /** The decoded bytes, sent to PostgreSQL as a binary parameter (no hex or base64 text on the way). */
  content: Buffer;
};

export type TNewApplication = {
  tenantId: number;
  vacancyId: number;
  apiKeyId: number;
  candidate: TNewCandidate;
  privacyPolicyAccepted: boolean;
  /** Consents as given, under the tenant's policy version of the moment (given at the application's creation). */
  consents: { processing: boolean; talentPool: boolean; policyVersion: string | null };
  ipAddress: string | null;
  userAgent: string | null;
  referrer: string | null;
  answers: Record<string, unknown>;
  documents: readonly TNewDocument[];
};

export type TStoredApplication = { id: number; created_at: Date; candidate_id: number };

/** What the one-statement submission returns: the vacancy it found, and the stored application when it could store one. */
export type TOpenStoreRow = TVacancyRef & {
  application_id: number | null;
  created_at: Date | null;
  candidate_id: number | null;
};

/**
 * Where the store statement takes its vacancy: `checked`, the one the caller found and checked (its id); `open`, the
 * visible vacancy of a reference (as findVisibleVacancy finds it), stored to only when nothing is left to check in
 * between — it accepts applications, asks no questions and its tenant allows duplicates.
 */
type TVacancySource = 'checked' | 'open';

/** What one run of the store statement binds: the application, the vacancy's id or reference, the candidate's two possible slugs. */
type TStoreArgs = {
  application: Omit<TNewApplication, 'vacancyId'>;
  vacancyId?: number;
  reference?: TVacancyReference;
  firstSlug: string;
  secondSlug: string;
  /** The Idempotency-Key stored by the statement, with the response (TClaimedResponse). */
  claimed?: TClaimedResponse;
};

/** An Idempotency-Key's record for the statement to store, with the response rendered as its template (IdempotencyClaim). */
export type TClaimedResponse = { values: TClaimValues; template: string };

/**
 * The values a claimed response's markers stand for, by marker name (the columns of TOpenStoreRow): all the response
 * takes from the statement.
 */
const SPLICED_VALUES = {
  application_id: sql.ref('application.id'),
  created_at: isoText(sql.ref('application.created_at')),
  candidate_id: sql.ref('application.candidate_id'),
  id: sql.ref('vacancy.id'),
  slug: sql.ref('vacancy.slug'),
  title: sql.ref('vacancy.title'),
} satisfies Partial<Record<keyof TOpenStoreRow, Expression<unknown>>>;

/**
 * The store statement for `documentCount` documents from `source`, `claimed` or not (its SQL is built once per all
 * three; see StatementTemplate): the tenant's candidate with this email (case-insensitive) or a new one (status
 * potential, a generated slug, no user), the application, its documents and its `application.created` event; when
 * `claimed`, the Idempotency-Key's record with the response too (insertClaimedRecord), and nothing at all when the key
 * has a record already. Every insert selects from the vacancy, so a vacancy that is not open stores nothing (it is
 * still returned, with null application fields).
 */
function storeStatement(documentCount: number, source: TVacancySource, claimed: boolean) {
  return new StatementTemplate<TStoreArgs, TOpenStoreRow & { response_body: string | null }>((db, arg, tenantId) => {
    const field = <T>(pick: (application: TStoreArgs['application']) => T) => arg((args) => pick(args.application));
    const candidate = <T>(pick: (candidate: TNewCandidate) => T) => field((application) => pick(application.candidate));
    const accepted = field((application) => application.privacyPolicyAccepted);
    const reference = {
      slug: arg((args) => args.reference?.slug ?? null),
      id: arg((args) => args.reference?.id ?? null),
    };
    const claimValue = <K extends keyof TClaimValues>(name: K) =>
      arg((args) => (args.claimed as TClaimedResponse).values[name]);
    const claim: TClaimValues = {
      apiKeyId: claimValue('apiKeyId'),
      operation: claimValue('operation'),
      key: claimValue('key'),
      hash: claimValue('hash'),
      status: claimValue('status'),
      headers: claimValue('headers'),
    };
    const openVacancy = () =>
      selectVisibleVacancy(db, reference).select(
        sql<boolean>`${sql.ref('vacancies.accepts_applications')} and ${sql.ref('vacancies.questions')} = '[]'::jsonb and ${sql.ref('tenants.duplicate_applications')} = 'allow' and ${claimed ? recordAbsent(db, claim) : sql`true`}`.as(
          'open',
        ),
      );
    const checkedVacancy = () =>
      db.selectNoFrom((eb) => [
        eb.cast<number>(eb.val(arg((args) => args.vacancyId)), 'integer').as('id'),
        sql<boolean>`true`.as('open'),
      ]) as unknown as ReturnType<typeof openVacancy>;
    let statement = db
      .with('vacancy', () => (source === 'open' ? openVacancy() : checkedVacancy()))
      .with('candidate', (qc) =>
        qc
          .insertInto('candidates')
          .columns(['tenant_id', 'slug', 'first_name', 'last_name', 'email', 'phone', 'linkedin_url', 'status'])
          .expression((eb) =>
            eb
              .selectFrom('vacancy')
              .select([
                eb.val(tenantId).as('tenant_id'),
                eb
                  .case()
                  .when(
                    eb.exists(
                      eb
                        .selectFrom('candidates')
                        .select('candidates.id')
                        .where(
                          'candidates.slug',
                          '=',
                          arg((args) => args.firstSlug),
                        ),
                    ),
                  )
                  .then(arg((args) => args.secondSlug))
                  .else(arg((args) => args.firstSlug))
                  .end()
                  .as('slug'),
                eb.val(candidate((c) => c.givenName)).as('first_name'),
                eb.val(candidate((c) => c.familyName)).as('last_name'),
                eb.val(candidate((c) => c.email)).as('email'),
                eb.val(candidate((c) => c.phone)).as('phone'),
                eb.val(candidate((c) => c.linkedinUrl)).as('linkedin_url'),
                eb.val('potential').as('status'),
              ])
              .where('vacancy.open', '=', true),
          )
          // An existing candidate is found, not changed (the update writes the email it already has).
          .onConflict((oc) =>
            oc.expression(sql`tenant_id, lower(email)`).doUpdateSet({ email: (eb) => eb.ref('candidates.email') }),
          )
          .returning('candidates.id'),
      )
      .with('application', (qc) =>
        qc
          .insertInto('applications')
          .columns([
            'tenant_id',
            'vacancy_id',
            'candidate_id',
            'api_key_id',
            'privacy_policy_accepted',
            'privacy_policy_accepted_at',
            'consent_processing',
            'consent_talent_pool',
            'consent_policy_version',
            'tracking_ip_address',
            'tracking_user_agent',
            'tracking_referrer',
            'answers',
          ])
          .expression((eb) =>
            eb.selectFrom(['vacancy', 'candidate']).select([
              eb.val(tenantId).as('tenant_id'),
              'vacancy.id as vacancy_id',
              'candidate.id as candidate_id',
              eb.val(field((application) => application.apiKeyId)).as('api_key_id'),
              eb.val(accepted).as('privacy_policy_accepted'),
              // The moment of consent is the moment the application was made (same transaction clock).
              sql<Date | null>`case when ${accepted}::boolean then now() end`.as('privacy_policy_accepted_at'),
              eb.val(field((application) => application.consents.processing)).as('consent_processing'),
              eb.val(field((application) => application.consents.talentPool)).as('consent_talent_pool'),
              eb.val(field((application) => application.consents.policyVersion)).as('consent_policy_version'),
              eb.val(field((application) => application.ipAddress)).as('tracking_ip_address'),
              eb.val(field((application) => application.userAgent)).as('tracking_user_agent'),
              eb.val(field((application) => application.referrer)).as('tracking_referrer'),
              eb.val(field((application) => application.answers)).as('answers'),
            ]),
          )
          .returning([
            'applications.id',
            'applications.created_at',
            'applications.candidate_id',
            'applications.vacancy_id',
          ]),
      )
      // recordEvent's shape: `data` carries the object's id beside the event's own fields. seq, id and occurred_at
      // come from their column defaults.
      .with('event', (qc) =>
        qc
          .insertInto('events')
          .columns(['tenant_id', 'type', 'object', 'object_id', 'data'])
          .expression((eb) =>
            eb
              .selectFrom('application')
              .select([
                eb.val(tenantId).as('tenant_id'),
                eb.val('application.created').as('type'),
                eb.val('application').as('object'),
                sql<string>`application.id::text`.as('object_id'),
                sql<
                  Record<string, unknown>
                >`jsonb_build_object('id', application.id, 'vacancy_id', application.vacancy_id, 'candidate_id', application.candidate_id)`.as(
                  'data',
                ),
              ]),
          ),
      );
    if (documentCount > 0) {
      // One insert, its rows in the documents' order (UNION ALL keeps it).
      statement = statement.with('document', (qc) =>
        qc
          .insertInto('documents')
          .columns(['tenant_id', 'application_id', 'type', 'position', 'filename', 'mime_type', 'size', 'content'])
          .expression((eb) => {
            const row = (index: number) => {
              const document = <T>(pick: (document: TNewDocument) => T) =>
                field((application) => pick(application.documents[index] as TNewDocument));
              return (
                eb
                  .selectFrom('application')
                  // Cast: the parameters of a UNION get no type from the columns they go to.
                  .select([
                    eb.cast<number>(eb.val(tenantId), 'integer').as('tenant_id'),
                    'application.id as application_id',
                    eb.cast<string>(eb.val(document((d) => d.type)), 'text').as('type'),
                    eb.cast<number>(eb.val(document((d) => d.position)), 'integer').as('position'),
                    eb.cast<string>(eb.val(document((d) => d.filename)), 'text').as('filename'),
                    eb.cast<string>(eb.val(document((d) => d.mimeType)), 'text').as('mime_type'),
                    eb.cast<number>(eb.val(document((d) => d.content.length)), 'integer').as('size'),
                    eb.cast<Buffer>(eb.val(document((d) => d.content)), 'bytea').as('content'),
                  ])
              );
            };
            let rows = row(0);
            for (let index = 1; index < documentCount; index++) rows = rows.unionAll(row(index));
            return rows;
          }),
      ) as unknown as typeof statement;
    }
    const stored = ['application.id as application_id', 'application.created_at', 'application.candidate_id'] as const;
    const found = [
      'vacancy.id',
      'vacancy.slug',
      'vacancy.title',
      'vacancy.accepts_applications',
      'vacancy.questions',
      'vacancy.duplicate_applications',
    ] as const;
    const withRecord = statement
      // Without a claim, `record` is empty: the statement has one shape either way.
      .with('record', (qc) => {
        const none = qc.selectNoFrom(sql<string | null>`null::jsonb`.as('response_body')).where(sql<boolean>`false`);
        if (!claimed) return none;
        const body = splicedBody(
          arg((args) => (args.claimed as TClaimedResponse).template),
          SPLICED_VALUES,
        );
        return insertClaimedRecord(qc, claim, sql`application, vacancy`, body) as unknown as typeof none;
      })
      .selectFrom('vacancy')
      .leftJoin('application', (join) => join.onTrue())
      .leftJoin('record', (join) => join.onTrue())
      .select(source === 'open' ? [...found, ...stored] : [...stored])
      .select('record.response_body');
    return withRecord as unknown as Compilable<TOpenStoreRow & { response_body: string | null }>;
  });
}

/** Store statements by vacancy source and document count (a handful: a resume, a cover letter, a few additional documents). */
const storeStatements = new Map<string, ReturnType<typeof storeStatement>>();

function runStoreStatement(
  db: TDb,
  tenantId: number,
  source: TVacancySource,
  args: Omit<TStoreArgs, 'firstSlug' | 'secondSlug'>,
) {
  const count = args.application.documents.length;
  const claimed = args.claimed !== undefined;
  const name = `${source}:${count}:${claimed}`;
  let statement = storeStatements.get(name);
  if (!statement) storeStatements.set(name, (statement = storeStatement(count, source, claimed)));
  return statement.execute(db, { ...args, ...candidateSlugs(args.application.candidate) }, tenantId);
}

/**
 * Stores an application to a checked vacancy in ONE statement (one round trip, atomic by itself, or part of the
 * caller's transaction): the tenant's candidate with this email (case-insensitive) or a new one, the application, its
 * documents and its `application.created` event (storeStatement).
 *
 * The candidate is an upsert on the unique (tenant_id, lower(email)) index, so a concurrent application with the same
 * new email waits for the other's insert and then gets that candidate: the statement never fails on that race. Its slug
 * takes a second random suffix when the first is taken (a clash of both is not a practical concern).
 */
export async function storeApplication(db: TDb, application: TNewApplication): Promise<TStoredApplication> {
  const [row] = await runStoreStatement(db, application.tenantId, 'checked', {
    application,
    vacancyId: application.vacancyId,
  });
  if (!row || row.application_id === null || row.created_at === null || row.candidate_id === null)
    throw new Error('the application statement returned no row');
  return { id: row.application_id, created_at: row.created_at, candidate_id: row.candidate_id };
}

/**
 * Submits an application in ONE round trip when its vacancy is open (see TVacancySource): returns the vacancy found
 * (undefined: none is visible) with the stored application's id, time and candidate, or with nulls when the vacancy
 * has something left to check (closed, questions, duplicates refused) and nothing was stored. No answers are stored.
 */
export async function storeApplicationIfOpen(
  db: TDb,
  tenantId: number,
  reference: TVacancyReference,
  application: Omit<TNewApplication, 'vacancyId' | 'answers'>,
): Promise<TOpenStoreRow | undefined> {
  const [row] = await runStoreStatement(db, tenantId, 'open', {
    application: { ...application, answers: {} },
    reference,
  });
  if (!row) return undefined;
  const { response_body: _none, ...stored } = row;
  return stored;
}

/**
 * storeApplicationIfOpen with an Idempotency-Key: the same statement stores the key's record with the response
 * (`claimed.template`, its markers named after TOpenStoreRow's columns) and returns the body it stored; it stores
 * nothing when the key has a record. Fails with the key's unique violation when a concurrent request with the key
 * committed its record first (isClaimConflict).
 */
export async function storeClaimedApplicationIfOpen(
  db: TDb,
  tenantId: number,
  reference: TVacancyReference,
  application: Omit<TNewApplication, 'vacancyId' | 'answers'>,
  claimed: TClaimedResponse,
): Promise<string | undefined> {
  const [row] = await runStoreStatement(db, tenantId, 'open', {
    application: { ...application, answers: {} },
    reference,
    claimed,
  });
  return row?.response_body ?? undefined;
}
