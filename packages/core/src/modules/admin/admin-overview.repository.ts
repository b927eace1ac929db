import { sql } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import { PROCESSING_STATUSES } from '../resumes/resume-processing.entity.ts';

export type TProcessingStatus = (typeof PROCESSING_STATUSES)[number];

export type TOverviewCounts = {
  visibleVacancies: number;
  applicationsLast7Days: number;
  processingsByStatus: Record<TProcessingStatus, number>;
};

export type TProcessingFailure = { id: string; filename: string; error: string | null; attempts: number; updatedAt: Date; createdAt: Date };

/** Counts for the dashboard's overview; `db` must be tenant-scoped. */
export async function overviewCounts(db: TDb, now: Date): Promise<TOverviewCounts> {
  const since = new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000);
  const [vacancies, applications, processings] = await Promise.all([
    // CONTRACT's visibility: published, on the api channel, published_at <= now, not ended.
    db
      .selectFrom('vacancies')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'published')
      .where(sql<boolean>`'api' = any(channels)`)
      .where('published_at', '<=', now)
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
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
  const processingsByStatus = Object.fromEntries(PROCESSING_STATUSES.map((status) => [status, 0])) as Record<TProcessingStatus, number>;
  for (const row of processings) processingsByStatus[row.status] = Number(row.n);
  return {
    visibleVacancies: Number(vacancies.n),
    applicationsLast7Days: Number(applications.n),
    processingsByStatus,
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
