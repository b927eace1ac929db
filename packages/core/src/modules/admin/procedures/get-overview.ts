import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { AppError } from '../../../lib/errors.ts';
import { latestProcessingFailures, overviewCounts } from '../admin-overview.repository.ts';
import { toProcessingFailure } from '../admin.dto.ts';
import { ZGetOverviewInput, ZGetOverviewOutput } from './get-overview.schema.ts';

/** How many of the latest failed resume processings the overview lists. */
const LATEST_FAILURES = 5;

export const getOverviewProcedure = adminProcedure
  .input(ZGetOverviewInput)
  .output(ZGetOverviewOutput)
  .query(async ({ ctx }) => {
    const now = new Date();
    const [counts, failures, tenant, keys] = await Promise.all([
      overviewCounts(ctx.db, now),
      latestProcessingFailures(ctx.db, LATEST_FAILURES),
      ctx.db.selectFrom('tenants').select('api_enabled').executeTakeFirst(),
      ctx.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow(),
    ]);
    if (!tenant) throw new AppError('UNAUTHENTICATED');
    return {
      api_enabled: tenant.api_enabled,
      visible_vacancies: counts.visibleVacancies,
      applications_last_7_days: counts.applicationsLast7Days,
      active_api_keys: Number(keys.n),
      resume_processings: counts.processingsByStatus,
      latest_failures: failures.map(toProcessingFailure),
      generated_at: now.toISOString(),
    };
  });
