import type { TDb } from '../../db/kysely.ts';
import { PROCESSING_STATUSES } from '../resumes/resume-processing.entity.ts';
import { visibleVacancy } from '../vacancies/vacancy-visibility.ts';

export type TProcessingStatus = (typeof PROCESSING_STATUSES)[number];

export type TOverviewCounts = {
  visibleVacancies: number;
  applicationsLast7Days: number;
  processingsByStatus: Record<TProcessingStatus, number>;
};

export type TProcessingFailure = {
  id: string;
  filename: string;
  error: string | null;
  attempts: number;
  updatedAt: Date;
  createdAt: Date;
};

/** Counts for the dashboard's overview; `db` must be tenant-scoped. */
export async function overviewCounts(db: TDb, now: Date): Promise<TOverviewCounts> {
  const since = new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000);
  const [vacancies, applications, processings] = await Promise.all([
    db
      .selectFrom('vacancies')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(visibleVacancy('vacancies', now))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('applications')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('resume_processings')
      .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('status')
      .execute(),
  ]);
  const processingsByStatus = Object.fromEntries(PROCESSING_STATUSES.map((status) => [status, 0])) as Record<
    TProcessingStatus,
    number
  >;
  for (const row of processings) processingsByStatus[row.status] = Number(row.n);
  return {
    visibleVacancies: Number(vacancies.n),
    applicationsLast7Days: Number(applications.n),
    processingsByStatus,
  };
}

export type TVacancyApplications = {
  id: number;
  slug: string;
  title: string;
  status: string;
  applications: number;
  applicationsLast7Days: number;
};

/**
 * The tenant's vacancies with their application counts, most applied-to first (then newest), at most `limit`;
 * `total` is how many vacancies the tenant has. `db` must be tenant-scoped.
 */
export async function applicationsPerVacancy(
  db: TDb,
  now: Date,
  limit: number,
): Promise<{ rows: TVacancyApplications[]; total: number }> {
  const since = new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000);
  const [rows, total] = await Promise.all([
    db
      .selectFrom('vacancies')
      .leftJoin('applications', 'applications.vacancy_id', 'vacancies.id')
      .select((eb) => [
        'vacancies.id',
        'vacancies.slug',
        'vacancies.title',
        'vacancies.status',
        eb.fn.count<string>('applications.id').as('applications'),
        eb.fn.count<string>('applications.id').filterWhere('applications.created_at', '>=', since).as('recent'),
      ])
      .groupBy('vacancies.id')
      .orderBy('applications', 'desc')
      .orderBy('vacancies.id', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('vacancies')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      title: row.title,
      status: row.status,
      applications: Number(row.applications),
      applicationsLast7Days: Number(row.recent),
    })),
    total: Number(total.n),
  };
}

/** The most recent failed resume processings, newest first. */
export async function latestProcessingFailures(db: TDb, limit: number): Promise<TProcessingFailure[]> {
  const rows = await db
    .selectFrom('resume_processings')
    .select(['id', 'filename', 'error', 'attempts', 'updated_at', 'created_at'])
    .where('status', '=', 'failed')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    filename: row.filename,
    error: row.error,
    attempts: row.attempts,
    updatedAt: row.updated_at,
    createdAt: row.created_at,
  }));
}
