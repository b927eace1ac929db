import { randomBytes } from 'node:crypto';
import { sql, type InsertObject } from 'kysely';
import { serialRow, type TDB, type TDb } from '../../db/kysely.ts';
import { StatementTemplate } from '../../db/statement-template.ts';
import type { DOCUMENT_TYPES } from './application.entity.ts';
import { visibleVacancy } from '../vacancies/vacancy-visibility.ts';
import { isStorableId } from '../../lib/query.ts';
import { isStorableText } from '../../lib/validation.ts';
import type { TVacancyQuestion } from '../vacancies/vacancy-question.ts';
import type { TDuplicateApplicationPolicy } from '../tenants/tenant.entity.ts';

export type TVacancyRef = {
  id: number;
  slug: string;
  title: string;
  accepts_applications: boolean;
  questions: TVacancyQuestion[];
  /** The tenant's setting, read with the vacancy (one round trip for both). */
  duplicate_applications: TDuplicateApplicationPolicy;
};

/** The visible vacancy (with its tenant's duplicate policy) with this id or this slug; built once each (StatementTemplate). */
function visibleVacancyBy(column: 'id' | 'slug') {
  return new StatementTemplate<{ reference: number | string }, TVacancyRef>((db, arg) => {
    const visible = db
      .selectFrom('vacancies')
      .innerJoin('tenants', 'tenants.id', 'vacancies.tenant_id')
      .select(['vacancies.id', 'vacancies.slug', 'vacancies.title', 'vacancies.accepts_applications', 'vacancies.questions', 'tenants.duplicate_applications'])
      .where(visibleVacancy('vacancies'));
    return column === 'id'
      ? visible.where('vacancies.id', '=', arg((args) => args.reference as number))
      : visible.where('vacancies.slug', '=', arg((args) => args.reference as string));
  });
}
const visibleVacancyById = visibleVacancyBy('id');
const visibleVacancyBySlug = visibleVacancyBy('slug');

/**
 * The visible vacancy an application names: a JSON integer is an id; a string is a slug, and a string of
 * digits that is no visible vacancy's slug is tried as an id.
 */
export async function findVisibleVacancy(db: TDb, tenantId: number, reference: number | string): Promise<TVacancyRef | undefined> {
  const byId = async (id: number) => (isStorableId(id) ? (await visibleVacancyById.execute(db, { reference: id }, tenantId))[0] : undefined);
  if (typeof reference === 'number') return byId(reference);
  // No stored slug holds NUL or an unpaired surrogate (PostgreSQL would refuse the first as a parameter).
  if (!isStorableText(reference)) return undefined;
  const [bySlug] = await visibleVacancyBySlug.execute(db, { reference }, tenantId);
  if (bySlug || !/^\d{1,10}$/.test(reference)) return bySlug;
  return byId(Number(reference));
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
  ipAddress: string | null;
  userAgent: string | null;
  referrer: string | null;
  answers: Record<string, unknown>;
  documents: readonly TNewDocument[];
};

/** An events row whose `seq` is a bigserial (the entity-derived row type requires it). */
function eventRow(row: Omit<InsertObject<TDB, 'events'>, 'seq'>): InsertObject<TDB, 'events'> {
  return row as InsertObject<TDB, 'events'>;
}

export type TStoredApplication = { id: number; created_at: Date; candidate_id: number };

/** What one run of the store statement binds: the application and the candidate's two possible slugs. */
type TStoreArgs = { application: TNewApplication; firstSlug: string; secondSlug: string };

/**
 * The store statement for `documentCount` documents (its SQL is built once per count; see StatementTemplate):
 * the tenant's candidate with this email (case-insensitive) or a new one (status potential, a generated slug, no
 * user), the application, its documents and its `application.created` event.
 */
function storeStatement(documentCount: number) {
  return new StatementTemplate<TStoreArgs, TStoredApplication>((db, arg, tenantId) => {
    const candidate = <T>(pick: (candidate: TNewCandidate) => T) => arg((args) => pick(args.application.candidate));
    const field = <T>(pick: (application: TNewApplication) => T) => arg((args) => pick(args.application));
    const accepted = field((application) => application.privacyPolicyAccepted);
    let statement = db
      .with('candidate', (qc) =>
        qc
          .insertInto('candidates')
          .values((eb) =>
            serialRow<'candidates'>({
              tenant_id: tenantId,
              slug: eb
                .case()
                .when(eb.exists(eb.selectFrom('candidates').select('candidates.id').where('candidates.slug', '=', arg((args) => args.firstSlug))))
                .then(arg((args) => args.secondSlug))
                .else(arg((args) => args.firstSlug))
                .end(),
              first_name: candidate((c) => c.givenName),
              last_name: candidate((c) => c.familyName),
              email: candidate((c) => c.email),
              phone: candidate((c) => c.phone),
              linkedin_url: candidate((c) => c.linkedinUrl),
              status: 'potential',
            }),
          )
          // An existing candidate is found, not changed (the update writes the email it already has).
          .onConflict((oc) => oc.expression(sql`tenant_id, lower(email)`).doUpdateSet({ email: (eb) => eb.ref('candidates.email') }))
          .returning('candidates.id'),
      )
      .with('application', (qc) =>
        qc
          .insertInto('applications')
          .values((eb) =>
            serialRow<'applications'>({
              tenant_id: tenantId,
              vacancy_id: field((application) => application.vacancyId),
              candidate_id: eb.selectFrom('candidate').select('candidate.id'),
              api_key_id: field((application) => application.apiKeyId),
              privacy_policy_accepted: accepted,
              // The moment of consent is the moment the application was made (same transaction clock).
              privacy_policy_accepted_at: sql<Date | null>`case when ${accepted}::boolean then now() end`,
              tracking_ip_address: field((application) => application.ipAddress),
              tracking_user_agent: field((application) => application.userAgent),
              tracking_referrer: field((application) => application.referrer),
              answers: field((application) => application.answers),
            }),
          )
          .returning(['applications.id', 'applications.created_at', 'applications.candidate_id']),
      )
      // recordEvent's shape: `data` carries the object's id beside the event's own fields. seq, id and occurred_at
      // come from their column defaults. (The raw parts read only this statement's `application` row.)
      .with('event', (qc) =>
        qc.insertInto('events').values(
          eventRow({
            tenant_id: tenantId,
            type: 'application.created',
            object: 'application',
            object_id: sql<string>`(select application.id::text from application)`,
            data: sql<Record<string, unknown>>`(select jsonb_build_object('id', application.id, 'vacancy_id', ${field((application) => application.vacancyId)}::int, 'candidate_id', application.candidate_id) from application)`,
          }),
        ),
      );
    if (documentCount > 0) {
      statement = statement.with('document', (qc) =>
        qc.insertInto('documents').values((eb) =>
          Array.from({ length: documentCount }, (_, index) => {
            const document = <T>(pick: (document: TNewDocument) => T) => field((application) => pick(application.documents[index] as TNewDocument));
            return serialRow<'documents'>({
              tenant_id: tenantId,
              application_id: eb.selectFrom('application').select('application.id'),
              type: document((d) => d.type),
              position: document((d) => d.position),
              filename: document((d) => d.filename),
              mime_type: document((d) => d.mimeType),
              size: document((d) => d.content.length),
              content: document((d) => d.content),
            });
          }),
        ),
      ) as unknown as typeof statement;
    }
    return statement.selectFrom('application').select(['application.id', 'application.created_at', 'application.candidate_id']);
  });
}

/** Store statements by document count (a handful: a resume, a cover letter and a few additional documents). */
const storeStatements = new Map<number, ReturnType<typeof storeStatement>>();

/**
 * Stores an application in ONE statement (one round trip, atomic by itself, or part of the caller's transaction):
 * the tenant's candidate with this email (case-insensitive) or a new one, the application, its documents and its
 * `application.created` event (storeStatement).
 *
 * The candidate is an upsert on the unique (tenant_id, lower(email)) index, so a concurrent application with the same
 * new email waits for the other's insert and then gets that candidate: the statement never fails on that race. Its slug
 * takes a second random suffix when the first is taken (a clash of both is not a practical concern).
 */
export async function storeApplication(db: TDb, application: TNewApplication): Promise<TStoredApplication> {
  const { candidate, documents } = application;
  const base = slugBase(`${candidate.givenName} ${candidate.familyName}`);
  const random = randomBytes(8).toString('hex');
  let statement = storeStatements.get(documents.length);
  if (!statement) storeStatements.set(documents.length, (statement = storeStatement(documents.length)));
  const [stored] = await statement.execute(db, { application, firstSlug: `${base}-${random.slice(0, 8)}`, secondSlug: `${base}-${random.slice(8)}` }, application.tenantId);
  if (!stored) throw new Error('the application statement returned no row');
  return stored;
}
