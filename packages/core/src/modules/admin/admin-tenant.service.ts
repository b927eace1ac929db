import type { TServiceContext } from '../service-context.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit } from '../privacy/audit-log.service.ts';
import { applicationsPerVacancy, latestProcessingFailures, overviewCounts } from './admin-overview.repository.ts';
import { findAdminUserAndTenant, findApiAccess, updateApiAccess } from './admin-tenant.repository.ts';
import { toAdminTenant, toAdminUser, toProcessingFailure } from './admin.dto.ts';

/* The dashboard's view of its tenant: who is signed in, the overview, the switch of API access. */

/** How many of the latest failed resume processings the overview lists. */
const LATEST_FAILURES = 5;
/** How many vacancies the overview lists with their application counts. */
const VACANCIES_LISTED = 50;

/** The signed-in administrator and their tenant. */
export async function getAdminMe(ctx: TServiceContext, input: { userId: number }) {
  const found = await findAdminUserAndTenant(ctx.db, input.userId);
  // Both are deleted with cascade to the session, so this only happens in a race with a deletion.
  if (!found) throw new AppError('UNAUTHENTICATED');
  const { user, tenant } = found;
  return { user: toAdminUser(user), tenant: toAdminTenant(tenant) };
}

/** The tenant at a glance: counts, the latest failed resume processings, applications per vacancy. */
export async function getOverview(ctx: TServiceContext, input: { now?: Date } = {}) {
  const { db } = ctx;
  const now = input.now ?? new Date();
  const [counts, failures, access, perVacancy] = await Promise.all([
    overviewCounts(db, now),
    latestProcessingFailures(db, LATEST_FAILURES),
    findApiAccess(db),
    applicationsPerVacancy(db, now, VACANCIES_LISTED),
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
}

/** Switches the tenant's API access, in its audit log; returns the new setting. */
export async function setApiAccess(ctx: TServiceContext, input: { enabled: boolean; actor: string }): Promise<boolean> {
  const apiEnabled = await updateApiAccess(ctx.db, input.enabled);
  if (apiEnabled === undefined) throw new AppError('NOT_FOUND');
  await recordAudit(ctx, { actor: input.actor, action: 'api_access.switched', details: { api_enabled: apiEnabled } });
  return apiEnabled;
}
