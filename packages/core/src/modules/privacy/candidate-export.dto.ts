import { z } from 'zod';
import { iso } from '../../lib/dates.ts';
import { DOCUMENT_TYPES } from '../applications/application.entity.ts';
import { ZCandidateProfile, type TCandidateProfile } from '../candidates/candidate.dto.ts';
import { ZConsents } from './consents.ts';
import type { TExportApplicationRow, TExportDocumentRow, TExportResumeRow } from './candidate-export.repository.ts';

const ZExportDocument = z.object({
  type: z.enum(DOCUMENT_TYPES),
  filename: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  content: z.string().describe('The file, base64'),
});

export const ZCandidateExport = z.object({
  candidate: ZCandidateProfile,
  applications: z.array(
    z.object({
      id: z.number().int(),
      vacancy: z.object({ id: z.number().int(), slug: z.string(), title: z.string() }),
      answers: z.record(z.string(), z.unknown()),
      consents: ZConsents,
      tracking: z.object({
        ip_address: z.string().nullable(),
        user_agent: z.string().nullable(),
        referrer: z.string().nullable(),
      }),
      privacy_policy_accepted: z.boolean(),
      created_at: z.string(),
      documents: z.array(ZExportDocument),
    }),
  ),
  resumes: z.array(
    z.object({
      processing_id: z.string(),
      filename: z.string(),
      mime_type: z.string(),
      created_at: z.string(),
      content: z.string().describe('The uploaded file, base64'),
    }),
  ),
});
export type TCandidateExport = z.infer<typeof ZCandidateExport>;

export function toCandidateExport(
  candidate: TCandidateProfile,
  applications: readonly TExportApplicationRow[],
  documents: readonly TExportDocumentRow[],
  resumes: readonly TExportResumeRow[],
): TCandidateExport {
  return {
    candidate,
    applications: applications.map((row) => ({
      id: row.id,
      vacancy: { id: row.vacancy_id, slug: row.vacancy_slug, title: row.vacancy_title },
      answers: row.answers,
      consents: {
        processing: row.consent_processing,
        talent_pool: row.consent_talent_pool,
        given_at: iso(row.created_at),
        policy_version: row.consent_policy_version,
      },
      tracking: {
        ip_address: row.tracking_ip_address,
        user_agent: row.tracking_user_agent,
        referrer: row.tracking_referrer,
      },
      privacy_policy_accepted: row.privacy_policy_accepted,
      created_at: iso(row.created_at),
      documents: documents
        .filter((document) => document.application_id === row.id)
        .map((document) => ({
          type: document.type as (typeof DOCUMENT_TYPES)[number],
          filename: document.filename,
          mime_type: document.mime_type,
          size: document.size,
          content: document.content.toString('base64'),
        })),
    })),
    resumes: resumes.map((row) => ({
      processing_id: row.id,
      filename: row.filename,
      mime_type: row.mime_type,
      created_at: iso(row.created_at),
      content: (row.content ?? Buffer.alloc(0)).toString('base64'),
    })),
  };
}
