import type { TServiceContext } from '../service-context.ts';
import { getCandidateProfile } from '../candidates/candidates.service.ts';
import { recordAudit } from './audit-log.service.ts';
import { toCandidateExport, type TCandidateExport } from './candidate-export.dto.ts';
import { findApplicationsOf, findDocumentsOf, findResumesOf } from './candidate-export.repository.ts';

/**
 * Everything held about one candidate of the tenant (CONTRACT "Export"): the profile, every application with its
 * answers, consents, tracking and documents, and every resume upload with its file. 404 like GET /candidates/{id}.
 * The export is recorded in the audit log (by id).
 */
export async function exportCandidate(
  ctx: TServiceContext,
  input: { id: string; actor: string },
): Promise<TCandidateExport> {
  const { db } = ctx;
  const candidate = await getCandidateProfile(ctx, { id: input.id });
  const applications = await findApplicationsOf(db, candidate.id);
  const documents = await findDocumentsOf(
    db,
    applications.map((application) => application.id),
  );
  const resumes = await findResumesOf(db, candidate.id);
  await recordAudit(ctx, { actor: input.actor, action: 'candidate.exported', subject: `candidate ${candidate.id}` });
  return toCandidateExport(candidate, applications, documents, resumes);
}
