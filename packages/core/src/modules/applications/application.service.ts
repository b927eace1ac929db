import { tenantKysely, type TDb } from '../../db/kysely.ts';
import type { TServiceContextWithEm } from '../service-context.ts';
import { AppError, type TFieldErrors } from '../../lib/errors.ts';
import {
  ZCreateApplicationInput,
  type TApplicationDocumentInput,
  type TApplicationResponse,
  type TCreateApplicationInput,
} from './application.schema.ts';
import {
  findApplicationByEmail,
  findVisibleVacancy,
  lockApplicationsOf,
  storeApplication,
  storeApplicationIfOpen,
  storeClaimedApplicationIfOpen,
  vacancyReference,
  type TNewApplication,
  type TNewCandidate,
  type TNewDocument,
  type TOpenStoreRow,
  type TStoredApplication,
  type TVacancyRef,
  type TVacancyReference,
} from './application.repository.ts';
import { checkAnswers, type TAnswers } from './application-answers.ts';
import { toApplicationResponse } from './application.dto.ts';
import { isClaimConflict, type IdempotencyClaim } from '../idempotency/idempotency-claim.ts';
import { consentErrors } from '../privacy/consents.ts';
import type { TPrivacySettings } from '../privacy/privacy-settings.ts';

/** The tenant requires consent to processing (422 on `consents.processing`, CONTRACT "Consent on POST /applications"). */
async function checkConsent(ctx: TApplicationContext, input: TCreateApplicationInput): Promise<void> {
  const errors = consentErrors(ctx.tenant.privacy.require_processing_consent, input.consents);
  // One 422 lists every invalid field: the answers' errors join the consent's.
  if (Object.keys(errors).length > 0) throw AppError.validation({ ...errors, ...(await questionErrorsOf(ctx, input)) });
}

function documentsOf(input: TCreateApplicationInput['documents']): TNewDocument[] {
  const toDocument = (
    type: TNewDocument['type'],
    position: number,
    document: TApplicationDocumentInput,
  ): TNewDocument => ({
    type,
    position,
    filename: document.filename,
    mimeType: document.mime_type,
    content: document.content,
  });
  return [
    ...(input?.resume ? [toDocument('resume', 0, input.resume)] : []),
    ...(input?.cover_letter ? [toDocument('cover_letter', 0, input.cover_letter)] : []),
    ...(input?.additional ?? []).map((document, index) => toDocument('additional', index, document)),
  ];
}

/**
 * What an application is submitted with: the key's tenant (with its privacy settings: whether processing consent is
 * required, and the policy version consents are given under), the key, and with a one-statement Idempotency-Key the
 * key's claim. A procedure's context is one as it is.
 */
export type TApplicationContext = TServiceContextWithEm & {
  tenant: { id: number; privacy: Pick<TPrivacySettings, 'require_processing_consent' | 'policy_version'> };
  apiKey: { id: number };
  idempotency?: IdempotencyClaim;
};

/**
 * The checks of a found vacancy, in CONTRACT's order: the answers fit its questions (422), it accepts applications (400).
 */
function checkVacancy(
  vacancy: TVacancyRef,
  input: TCreateApplicationInput,
): { vacancy: TVacancyRef; answers: TAnswers } {
  const checked = checkAnswers(vacancy.questions, input.answers);
  if (Object.keys(checked.errors).length > 0) throw AppError.validation(checked.errors);
  if (!vacancy.accepts_applications) throw new AppError('VACANCY_CLOSED');
  return { vacancy, answers: checked.answers };
}

/** The checks that need the database, in CONTRACT's order: the vacancy is visible (404), then checkVacancy's. */
async function checkVacancyAndAnswers(
  db: TDb,
  tenantId: number,
  input: TCreateApplicationInput,
): Promise<{ vacancy: TVacancyRef; answers: TAnswers }> {
  const vacancy = await findVisibleVacancy(db, tenantId, input.vacancy);
  if (!vacancy) throw new AppError('VACANCY_NOT_FOUND');
  return checkVacancy(vacancy, input);
}

async function rejectDuplicate(db: TDb, vacancyId: number, email: string): Promise<void> {
  const existing = await findApplicationByEmail(db, vacancyId, email);
  if (existing !== undefined) throw new AppError('DUPLICATE_APPLICATION', { applicationId: existing });
}

/**
 * The 422s that need the vacancy (its questions), for a body that already failed validation: when the body names
 * a visible vacancy, its answers are checked too, so one 422 lists every invalid field. Nothing else is reported
 * here: a missing or closed vacancy is answered after the body is valid.
 */
export async function answerErrorsOf(ctx: TApplicationContext, rawInput: unknown): Promise<TFieldErrors> {
  const { require_processing_consent } = ctx.tenant.privacy;
  if (typeof rawInput !== 'object' || rawInput === null) return consentErrors(require_processing_consent, undefined);
  const raw = rawInput as Record<string, unknown>;
  return {
    ...consentErrors(require_processing_consent, raw.consents),
    ...(await questionErrorsOf(ctx, raw)),
  };
}

async function questionErrorsOf(
  ctx: TApplicationContext,
  raw: { vacancy?: unknown; answers?: unknown },
): Promise<TFieldErrors> {
  const reference = ZCreateApplicationInput.shape.vacancy.safeParse(raw.vacancy);
  if (!reference.success) return {};
  const answers = raw.answers;
  if (answers !== undefined && answers !== null && (typeof answers !== 'object' || Array.isArray(answers))) return {};
  const vacancy = await findVisibleVacancy(ctx.db, ctx.tenant.id, reference.data);
  if (!vacancy) return {};
  return checkAnswers(vacancy.questions, answers as Record<string, unknown> | null | undefined).errors;
}

/** Everything a submission checks (`validate_only`), without storing anything and without taking a lock. */
export async function validateApplication(ctx: TApplicationContext, input: TCreateApplicationInput): Promise<void> {
  await checkConsent(ctx, input);
  const { vacancy } = await checkVacancyAndAnswers(ctx.db, ctx.tenant.id, input);
  if (vacancy.duplicate_applications === 'reject') await rejectDuplicate(ctx.db, vacancy.id, input.candidate.email);
}

function candidateOf(input: TCreateApplicationInput): TNewCandidate {
  const { candidate } = input;
  return {
    givenName: candidate.given_name,
    familyName: candidate.family_name,
    email: candidate.email,
    // The candidate record has one phone number: the mobile one when both are given.
    phone: candidate.mobile_phone ?? candidate.fixed_phone ?? null,
    linkedinUrl: candidate.linkedin_url ?? null,
  };
}

/** An application that answers no questions (absent, null or `{}`): the only kind the one-statement path takes. */
function answersNothing(input: TCreateApplicationInput): boolean {
  return input.answers === undefined || input.answers === null || Object.keys(input.answers).length === 0;
}

/** The application as stored, but for its vacancy and answers (what the checks decide). */
type TApplicationDraft = Omit<TNewApplication, 'vacancyId' | 'answers'>;

function draftOf(ctx: TApplicationContext, input: TCreateApplicationInput): TApplicationDraft {
  return {
    tenantId: ctx.tenant.id,
    apiKeyId: ctx.apiKey.id,
    candidate: candidateOf(input),
    privacyPolicyAccepted: input.privacy_policy_accepted,
    consents: {
      processing: input.consents.processing,
      talentPool: input.consents.talent_pool,
      policyVersion: ctx.tenant.privacy.policy_version,
    },
    ipAddress: input.tracking?.ip_address ?? null,
    userAgent: input.tracking?.user_agent ?? null,
    referrer: input.tracking?.referrer ?? null,
    documents: documentsOf(input.documents),
  };
}

/** The response: what was submitted, with what storing it gave (ids, the time). */
function responseOf(
  input: TCreateApplicationInput,
  draft: TApplicationDraft,
  vacancy: TVacancyRef,
  answers: TAnswers,
  stored: TStoredApplication,
): TApplicationResponse {
  return toApplicationResponse({
    application: { id: stored.id, created_at: stored.created_at },
    vacancy,
    // Echo what was submitted: answering with the stored names of a matched candidate would let any key
    // holding applications:write look people up by email.
    candidate: {
      id: stored.candidate_id,
      first_name: input.candidate.given_name,
      last_name: input.candidate.family_name,
      email: input.candidate.email,
    },
    documents: draft.documents,
    privacyPolicyAccepted: input.privacy_policy_accepted,
    consents: draft.consents,
    answers,
  });
}

/**
 * Submits an application: the vacancy must be visible (404), the answers fit its questions (422), it must
 * accept applications (400) and, when the tenant rejects duplicates, have no application with this email (409).
 * The candidate, the application, its documents and its event are written by one statement, committed before this
 * returns (or with the caller's transaction, e.g. an Idempotency-Key's).
 *
 * Round trips: one, when the application answers no questions and its vacancy is open (accepts applications, asks
 * nothing, allows duplicates): the statement finds the vacancy and stores in one go. Otherwise the vacancy is read
 * first (by that same statement when it stored nothing), checked, then stored; a tenant that rejects duplicates adds
 * a transaction holding the lock on (vacancy, email) around the duplicate check and the write.
 */
export async function submitApplication(
  ctx: TApplicationContext,
  input: TCreateApplicationInput,
): Promise<TApplicationResponse> {
  await checkConsent(ctx, input);
  const { db } = ctx;
  const tenantId = ctx.tenant.id;
  const draft = draftOf(ctx, input);
  const reference = vacancyReference(input.vacancy);
  if (ctx.idempotency) return submitWithClaimedKey(db, tenantId, input, draft, reference, ctx.idempotency);

  let found: TVacancyRef | undefined;
  if (reference && answersNothing(input)) {
    const row = await storeApplicationIfOpen(db, tenantId, reference, draft);
    if (row && row.application_id !== null && row.created_at !== null && row.candidate_id !== null) {
      const { application_id: id, created_at, candidate_id, ...vacancy } = row;
      return responseOf(input, draft, vacancy, {}, { id, created_at, candidate_id });
    }
    found = row;
  } else if (reference) {
    found = await findVisibleVacancy(db, tenantId, input.vacancy);
  }
  if (!found) throw new AppError('VACANCY_NOT_FOUND');

  const { vacancy, answers } = checkVacancy(found, input);
  const application: TNewApplication = { ...draft, vacancyId: vacancy.id, answers };
  const stored =
    vacancy.duplicate_applications === 'reject'
      ? await ctx.em.transactional(async (tx) => {
          const db = tenantKysely(tx, tenantId);
          // Serialises applications with this vacancy and email across processes until this transaction ends.
          await lockApplicationsOf(db, tenantId, vacancy.id, input.candidate.email);
          await rejectDuplicate(db, vacancy.id, input.candidate.email);
          return storeApplication(db, application);
        })
      : await storeApplication(db, application);
  return responseOf(input, draft, vacancy, answers, stored);
}

/**
 * A submission with an Idempotency-Key the operation stores itself (IdempotencyClaim): one statement finds the open
 * vacancy, stores the application and the key's record with the response. The response is rendered first, with
 * markers for what only the statement knows (named after its columns), and the statement splices them in. Every
 * other case declines, and the key's transaction runs the submission as above.
 */
async function submitWithClaimedKey(
  db: TDb,
  tenantId: number,
  input: TCreateApplicationInput,
  draft: TApplicationDraft,
  reference: TVacancyReference | undefined,
  idempotency: IdempotencyClaim,
): Promise<TApplicationResponse> {
  if (!reference || !answersNothing(input)) return idempotency.decline();
  const marker = <K extends keyof TOpenStoreRow>(name: K) => idempotency.marker<NonNullable<TOpenStoreRow[K]>>(name);
  const vacancy: TVacancyRef = {
    id: marker('id'),
    slug: marker('slug'),
    title: marker('title'),
    accepts_applications: true,
    questions: [],
    duplicate_applications: 'allow',
  };
  const stored = {
    id: marker('application_id'),
    created_at: idempotency.dateMarker('created_at'),
    candidate_id: marker('candidate_id'),
  };
  const claimed = {
    values: idempotency.values,
    template: idempotency.render(responseOf(input, draft, vacancy, {}, stored)),
  };
  const body = await storeClaimedApplicationIfOpen(db, tenantId, reference, draft, claimed).catch((error: unknown) =>
    isClaimConflict(error) ? idempotency.decline() : Promise.reject(error),
  );
  return body === undefined ? idempotency.decline() : (idempotency.accept(body) as TApplicationResponse);
}
