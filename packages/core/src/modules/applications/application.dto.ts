import type { TAnswers } from './application-answers.ts';
import { iso } from '../../lib/dates.ts';
import type { TApplicationResponse } from './application.schema.ts';
import type { TCandidateRow, TNewApplication, TNewDocument, TVacancyRef } from './application.repository.ts';

export type TSubmittedApplication = {
  application: { id: number; created_at: Date };
  vacancy: TVacancyRef;
  /** The candidate's id with the names and email as submitted: never what is stored about an existing candidate. */
  candidate: TCandidateRow;
  documents: readonly TNewDocument[];
  privacyPolicyAccepted: boolean;
  consents: TNewApplication['consents'];
  answers: TAnswers;
};

/** The 201 body of POST /applications. */
export function toApplicationResponse(submitted: TSubmittedApplication): TApplicationResponse {
  return {
    data: {
      id: submitted.application.id,
      vacancy: { id: submitted.vacancy.id, slug: submitted.vacancy.slug, title: submitted.vacancy.title },
      candidate: {
        id: submitted.candidate.id,
        given_name: submitted.candidate.first_name,
        family_name: submitted.candidate.last_name,
        email: submitted.candidate.email,
      },
      documents: submitted.documents.map((document) => ({
        type: document.type,
        filename: document.filename,
        mime_type: document.mimeType,
        size: document.content.length,
      })),
      privacy_policy_accepted: submitted.privacyPolicyAccepted,
      consents: {
        processing: submitted.consents.processing,
        talent_pool: submitted.consents.talentPool,
        // Given with the application: its creation time.
        given_at: iso(submitted.application.created_at),
        policy_version: submitted.consents.policyVersion,
      },
      answers: submitted.answers,
      created_at: iso(submitted.application.created_at),
    },
  };
}
