import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantKysely, type TDb } from '../db/kysely.ts';

/**
 * Every service operation is `(ctx, input)` (docs/architecture.md, "A module's spine"). `ctx` is what the call runs
 * with: `db`, the tenant-scoped Kysely (the one door to tenant data), and `tenant`, the tenant it is scoped to. A
 * service that needs more (the EntityManager for a transaction, the job sender, the content cache, the API key) asks
 * for it in its own context type, an extension of this one. A procedure's context satisfies all of them, so a
 * procedure passes its `ctx` as it is; a job, the CLI or a test makes one with `serviceContext(em, tenantId)`.
 */
export type TServiceContext = { db: TDb; tenant: { id: number } };

/** A service context that can also open a transaction (`ctx.em.transactional`) or reach the primary. */
export type TServiceContextWithEm = TServiceContext & { em: EntityManager };

/**
 * The context of an operator service, one that serves every tenant at once (a file of OPERATOR_PATHS in
 * scripts/check-layers.ts): the EntityManager, from which it takes the one unscoped handle, `crossTenantDb`.
 */
export type TOperatorContext = { em: EntityManager };

/** A service context for a caller outside a procedure: the tenant's scoped handle on `em` (a fork or a transaction). */
export function serviceContext(em: EntityManager, tenantId: number): TServiceContextWithEm {
  return { em, db: tenantKysely(em, tenantId), tenant: { id: tenantId } };
}
