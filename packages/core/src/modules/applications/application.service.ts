import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantKysely } from '../../db/kysely.ts';
import { AppError } from '../../lib/errors.ts';
import type { TApplicationDocumentInput, TCreateApplicationInput } from './procedures/create-application.schema.ts';
import {
  findOrCreateCandidate,
  findVisibleVacancy,
  insertApplication,
  insertDocument,
  type TNewDocument,
} from './application.repository.ts';
import type { TSubmittedApplication } from './application.dto.ts';
import { recordEvent } from '../events/events.service.ts';

function documentsOf(input: TCreateApplicationInput['documents']): TNewDocument[] {
  const toDocument = (type: TNewDocument['type'], position: number, document: TApplicationDocumentInput): TNewDocument => ({
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
 * Submits an application: the vacancy must be visible (404) and accept applications (400). The candidate,
 * the application and its documents are written in one transaction, committed before this returns.
 */
export async function submitApplication(
  em: EntityManager,
  key: { tenantId: number; apiKeyId: number },
  input: TCreateApplicationInput,
): Promise<TSubmittedApplication> {
  const vacancy = await findVisibleVacancy(tenantKysely(em, key.tenantId), input.vacancy);
  if (!vacancy) throw new AppError('VACANCY_NOT_FOUND');
  if (!vacancy.accepts_applications) throw new AppError('VACANCY_CLOSED');
  const documents = documentsOf(input.documents);
  return em.transactional(async (tx) => {
    const db = tenantKysely(tx, key.tenantId);
    const candidate = await findOrCreateCandidate(db, key.tenantId, {
      givenName: input.candidate.given_name,
      familyName: input.candidate.family_name,
      email: input.candidate.email,
      // The candidate record has one phone number: the mobile one when both are given.
      phone: input.candidate.mobile_phone ?? input.candidate.fixed_phone ?? null,
      linkedinUrl: input.candidate.linkedin_url ?? null,
    });
    const application = await insertApplication(db, {
      tenantId: key.tenantId,
      vacancyId: vacancy.id,
      candidateId: candidate.id,
      apiKeyId: key.apiKeyId,
      privacyPolicyAccepted: input.privacy_policy_accepted,
      ipAddress: input.tracking?.ip_address ?? null,
      userAgent: input.tracking?.user_agent ?? null,
      referrer: input.tracking?.referrer ?? null,
    });
    for (const document of documents) await insertDocument(db, key.tenantId, application.id, document);
    // Echo what was submitted: answering with the stored names of a matched candidate would let any key
    // holding applications:write look people up by email.
    const submitted = { id: candidate.id, first_name: input.candidate.given_name, last_name: input.candidate.family_name, email: input.candidate.email };
    await recordEvent(db, { tenantId: key.tenantId, type: 'application.created', object: 'application', objectId: application.id, data: { vacancy_id: vacancy.id, candidate_id: candidate.id } });
    return { application, vacancy, candidate: submitted, documents, privacyPolicyAccepted: input.privacy_policy_accepted };
  });
}
