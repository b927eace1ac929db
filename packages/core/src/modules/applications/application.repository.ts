import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { serialRow, type TDb } from '../../db/kysely.ts';
import type { DOCUMENT_TYPES } from './application.entity.ts';
import { visibleVacancy } from '../vacancies/vacancy-visibility.ts';
import { isStorableId } from '../../lib/query.ts';
import { isStorableText } from '../../lib/validation.ts';
import type { TVacancyQuestion } from '../vacancies/vacancy-question.ts';
import type { TDuplicateApplicationPolicy } from '../tenants/tenant.entity.ts';

export type TVacancyRef = { id: number; slug: string; title: string; accepts_applications: boolean; questions: TVacancyQuestion[] };

/**
 * The visible vacancy an application names: a JSON integer is an id; a string is a slug, and a string of
 * digits that is no visible vacancy's slug is tried as an id.
 */
export async function findVisibleVacancy(db: TDb, reference: number | string): Promise<TVacancyRef | undefined> {
  const visible = db.selectFrom('vacancies').select(['id', 'slug', 'title', 'accepts_applications', 'questions']).where(visibleVacancy('vacancies'));
  const byId = (id: number) => (isStorableId(id) ? visible.where('id', '=', id).executeTakeFirst() : Promise.resolve(undefined));
  if (typeof reference === 'number') return byId(reference);
  // No stored slug holds NUL or an unpaired surrogate (PostgreSQL would refuse the first as a parameter).
  if (!isStorableText(reference)) return undefined;
  const bySlug = await visible.where('slug', '=', reference).executeTakeFirst();
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
 * The tenant's candidate with this email (case-insensitive), or a new one (status potential, a generated
 * slug, no user). Safe against a concurrent application with the same new email: the unique index on
 * (tenant_id, lower(email)) makes the second insert wait and then find the first one's candidate.
 */
export async function findOrCreateCandidate(db: TDb, tenantId: number, candidate: TNewCandidate): Promise<TCandidateRow> {
  const byEmail = db
    .selectFrom('candidates')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', eb.fn('lower', [eb.val(candidate.email)])))
    .orderBy('id')
    .limit(1);
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await byEmail.executeTakeFirst();
    if (existing) return existing;
    const created = await db
      .insertInto('candidates')
      .values(
        serialRow<'candidates'>({
          tenant_id: tenantId,
          slug: `${slugBase(`${candidate.givenName} ${candidate.familyName}`)}-${randomBytes(4).toString('hex')}`,
          first_name: candidate.givenName,
          last_name: candidate.familyName,
          email: candidate.email,
          phone: candidate.phone,
          linkedin_url: candidate.linkedinUrl,
          status: 'potential',
        }),
      )
      // Either the email appeared meanwhile (found on the next round) or the random slug was taken (retried).
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'first_name', 'last_name', 'email'])
      .executeTakeFirst();
    if (created) return created;
  }
  throw new Error('could not find or create the candidate');
}

export type TNewApplication = {
  tenantId: number;
  vacancyId: number;
  candidateId: number;
  apiKeyId: number;
  privacyPolicyAccepted: boolean;
  ipAddress: string | null;
  userAgent: string | null;
  referrer: string | null;
  answers: Record<string, unknown>;
};

export async function duplicatePolicyOf(db: TDb, tenantId: number): Promise<TDuplicateApplicationPolicy> {
  const tenant = await db.selectFrom('tenants').select('duplicate_applications').where('id', '=', tenantId).executeTakeFirstOrThrow();
  return tenant.duplicate_applications;
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

export async function insertApplication(db: TDb, application: TNewApplication): Promise<{ id: number; created_at: Date }> {
  return db
    .insertInto('applications')
    .values(
      serialRow<'applications'>({
        tenant_id: application.tenantId,
        vacancy_id: application.vacancyId,
        candidate_id: application.candidateId,
        api_key_id: application.apiKeyId,
        privacy_policy_accepted: application.privacyPolicyAccepted,
        // The moment of consent is the moment the application was made (same transaction clock).
        privacy_policy_accepted_at: application.privacyPolicyAccepted ? sql<Date>`now()` : null,
        tracking_ip_address: application.ipAddress,
        tracking_user_agent: application.userAgent,
        tracking_referrer: application.referrer,
        answers: application.answers,
      }),
    )
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
}

export type TNewDocument = {
  type: (typeof DOCUMENT_TYPES)[number];
  position: number;
  filename: string;
  mimeType: string;
  content: Buffer;
};

/** One statement per document, so no more than one file's bytes are in a query message at a time. */
export async function insertDocument(db: TDb, tenantId: number, applicationId: number, document: TNewDocument): Promise<void> {
  await db
    .insertInto('documents')
    .values(
      serialRow<'documents'>({
        tenant_id: tenantId,
        application_id: applicationId,
        type: document.type,
        position: document.position,
        filename: document.filename,
        mime_type: document.mimeType,
        size: document.content.length,
        content: document.content,
      }),
    )
    .execute();
}
