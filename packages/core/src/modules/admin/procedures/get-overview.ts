import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { AppError } from '../../../lib/errors.ts';
import { applicationsPerVacancy, latestProcessingFailures, overviewCounts } from '../admin-overview.repository.ts';
import { toProcessingFailure } from '../admin.dto.ts';
import { findApiAccess } from '../admin-tenant.repository.ts';
import { ZGetOverviewInput, ZGetOverviewOutput } from './get-overview.schema.ts';

/** How many of the latest failed resume processings the overview lists. */
const LATEST_FAILURES = 5;
/** How many vacancies the overview lists with their application counts. */
const VACANCIES_LISTED = 50;

export const getOverviewProcedure = adminProcedure
  .input(ZGetOverviewInput)
  .output(ZGetOverviewOutput)
  .query(async ({ ctx }) => {
    const now = new Date();
    const [counts, failures, access, perVacancy] = await Promise.all([
      overviewCounts(ctx.db, now),
      latestProcessingFailures(ctx.db, LATEST_FAILURES),
      findApiAccess(ctx.db),
      applicationsPerVacancy(ctx.db, now, VACANCIES_LISTED),
    ]);
    if (!access) throw new AppError('UNAUTHENTICATED');
    return {
      api_enabled: access.apiEnabled,
      visible_vacancies: counts.visibleVacancies,
      applications_last_7_days: counts.applicationsLast7Days,
      active_api_keys: access.activeKeys,
      resume_processings: counts.processingsByStatus,
      latest_failures: failures.map(toProcessingFailure),
      applications_per_vacancy: perVacancy.rows.map((row) => ({
        id: row.id,
        slug: row.slug,
        title: row.title,
        status: row.status,
        applications: row.applications,
        applications_last_7_days: row.applicationsLast7Days,
      })),
      vacancies_total: perVacancy.total,
      generated_at: now.toISOString(),
    };
  });
