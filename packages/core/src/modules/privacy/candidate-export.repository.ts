import type { TDb } from '../../db/kysely.ts';

export type TExportApplicationRow = {
  id: number;
  vacancy_id: number;
  vacancy_slug: string;
  vacancy_title: string;
  answers: Record<string, unknown>;
  consent_processing: boolean;
  consent_talent_pool: boolean;
  consent_policy_version: string | null;
  tracking_ip_address: string | null;
  tracking_user_agent: string | null;
  tracking_referrer: string | null;
  privacy_policy_accepted: boolean;
  created_at: Date;
};

export type TExportDocumentRow = {
  application_id: number;
  type: string;
  position: number;
  filename: string;
  mime_type: string;
  size: number;
  content: Buffer;
};
export type TExportResumeRow = {
  id: string;
  filename: string;
  mime_type: string;
  created_at: Date;
  content: Buffer | null;
};

/** A candidate's applications with their vacancies (published or not), oldest first. */
export async function findApplicationsOf(db: TDb, candidateId: number): Promise<TExportApplicationRow[]> {
  const rows = await db
    .selectFrom('applications as a')
    .innerJoin('vacancies as v', 'v.id', 'a.vacancy_id')
    .select([
      'a.id',
      'v.id as vacancy_id',
      'v.slug as vacancy_slug',
      'v.title as vacancy_title',
      'a.answers',
      'a.consent_processing',
      'a.consent_talent_pool',
      'a.consent_policy_version',
      'a.tracking_ip_address',
      'a.tracking_user_agent',
      'a.tracking_referrer',
      'a.privacy_policy_accepted',
      'a.created_at',
    ])
    .where('a.candidate_id', '=', candidateId)
    .orderBy('a.id')
    .execute();
  return rows as TExportApplicationRow[];
}

/** The documents of these applications, in each application's order (resume, cover letter, additional by position). */
export async function findDocumentsOf(db: TDb, applicationIds: readonly number[]): Promise<TExportDocumentRow[]> {
  if (applicationIds.length === 0) return [];
  const rows = await db
    .selectFrom('documents')
    .select(['application_id', 'type', 'position', 'filename', 'mime_type', 'size', 'content'])
    .where('application_id', 'in', applicationIds)
    .orderBy('application_id')
    .orderBy('id')
    .execute();
  return rows as TExportDocumentRow[];
}

/** The candidate's resume uploads with their files. */
export async function findResumesOf(db: TDb, candidateId: number): Promise<TExportResumeRow[]> {
  const rows = await db
    .selectFrom('resume_processings')
    .select(['id', 'filename', 'mime_type', 'created_at', 'content'])
    .where('candidate_id', '=', candidateId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows as TExportResumeRow[];
}

export type THeldCandidateRow = {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  created_at: Date;
  applications: number;
  documents: number;
  resumes: number;
};

/** The tenant's candidates with this email (case-insensitive), with counts of what is held about each. */
export async function findHeldByEmail(db: TDb, email: string): Promise<THeldCandidateRow[]> {
  const rows = await db
    .selectFrom('candidates as c')
    .select((eb) => [
      'c.id',
      'c.first_name',
      'c.last_name',
      'c.email',
      'c.phone',
      'c.created_at',
      eb
        .selectFrom('applications as a')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('a.candidate_id', '=', 'c.id')
        .as('applications'),
      eb
        .selectFrom('documents as d')
        .innerJoin('applications as a', 'a.id', 'd.application_id')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('a.candidate_id', '=', 'c.id')
        .as('documents'),
      eb
        .selectFrom('resume_processings as r')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('r.candidate_id', '=', 'c.id')
        .as('resumes'),
    ])
    .where((eb) => eb(eb.fn('lower', ['c.email']), '=', email.toLowerCase()))
    .orderBy('c.id')
    .execute();
  return rows.map((row) => ({
    ...row,
    applications: Number(row.applications),
    documents: Number(row.documents),
    resumes: Number(row.resumes),
  })) as THeldCandidateRow[];
}
