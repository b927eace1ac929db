import { serviceContext, type TOperatorContext } from '../service-context.ts';
import { recordAudit, auditActor } from './audit-log.service.ts';
import { eraseApplicationsIn, eraseCandidatesIn } from './erasure.service.ts';
import {
  claimErasableCandidates,
  claimExpiredApplications,
  countSweep,
  findTenantsToSweep,
  type TRetentionClock,
} from './retention.repository.ts';

/** Candidates (and applications) erased per transaction: bounded work and locks, whatever the backlog. */
export const SWEEP_BATCH = 100;

export type TSweepOptions = { tenantSlug?: string; asOf?: Date; dryRun?: boolean };
export type TSweepResult = { erased_candidates: number; erased_applications: number };

/**
 * The retention sweep (CONTRACT "Retention"): per tenant, erases the candidates none of whose applications is
 * unexpired and who are not kept by talent-pool consent (or, made from a resume, by its window), then the expired
 * applications of kept candidates — in batches of SWEEP_BATCH, each its own transaction, rows locked with SKIP LOCKED
 * so several workers can sweep at once without waiting for or repeating each other. `asOf` runs it as if the time were
 * then; `dryRun` only counts. Counts: candidates erased, and every application erased (theirs included).
 */
export async function sweepRetention(ctx: TOperatorContext, options: TSweepOptions = {}): Promise<TSweepResult> {
  const { em } = ctx;
  const asOf = options.asOf ?? new Date();
  const total: TSweepResult = { erased_candidates: 0, erased_applications: 0 };
  for (const tenant of await findTenantsToSweep(em, options.tenantSlug)) {
    const clock: TRetentionClock = { settings: tenant.settings, asOf };
    if (options.dryRun) {
      const counted = await countSweep(serviceContext(em, tenant.id).db, clock);
      total.erased_candidates += counted.candidates;
      total.erased_applications += counted.applications;
      continue;
    }
    const swept = { candidates: 0, applications: 0 };
    for (;;) {
      const erased = await em.transactional(async (tx) => {
        const txCtx = serviceContext(tx, tenant.id);
        const ids = await claimErasableCandidates(txCtx.db, clock, SWEEP_BATCH);
        return eraseCandidatesIn(txCtx, { candidateIds: ids, actor: auditActor.sweep() });
      });
      swept.candidates += erased.erasedCandidates;
      swept.applications += erased.erasedApplications;
      if (erased.erasedCandidates < SWEEP_BATCH) break;
    }
    for (;;) {
      const erased = await em.transactional(async (tx) => {
        const txCtx = serviceContext(tx, tenant.id);
        return eraseApplicationsIn(txCtx, {
          applicationIds: await claimExpiredApplications(txCtx.db, clock, SWEEP_BATCH),
        });
      });
      swept.applications += erased;
      if (erased < SWEEP_BATCH) break;
    }
    if (swept.candidates + swept.applications > 0) {
      await recordAudit(serviceContext(em, tenant.id), {
        actor: auditActor.sweep(),
        action: 'retention.swept',
        details: {
          erased_candidates: swept.candidates,
          erased_applications: swept.applications,
          as_of: asOf.toISOString(),
        },
      });
    }
    total.erased_candidates += swept.candidates;
    total.erased_applications += swept.applications;
  }
  return total;
}
