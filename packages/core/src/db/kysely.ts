import type { InsertObject } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TDB, TDb } from './tables.ts';
import { TenantScopePlugin } from './tenant-scope.ts';
import { followReplicaScope } from './read-replica.ts';

export type { TDB, TDb } from './tables.ts';

/** Kysely bound to the EntityManager's connection (and its transaction, if any). */
export function kyselyOf(em: EntityManager): TDb {
  return em.getKysely<TDB>();
}

/** Kysely that can only see and change the rows of one tenant (on the read replica inside `ReadReplica.run`). */
export function tenantKysely(em: EntityManager, tenantId: number): TDb {
  return followReplicaScope(kyselyOf(em).withPlugin(new TenantScopePlugin(tenantId)), tenantId);
}

/**
 * The one handle that sees every tenant's rows, for the paths that truly span tenants: the operator's commands, workers
 * that serve every tenant, tables that belong to no tenant. Inside modules/ only the files the layer check lists as
 * operator paths may use it (scripts/check-layers.ts); everything else reaches tenant data through `tenantKysely`.
 */
export function crossTenantDb(em: EntityManager): TDb {
  return kyselyOf(em);
}

/** A row whose id is serial (the entity-derived row type requires every id). */
export function serialRow<T extends keyof TDB>(row: Omit<InsertObject<TDB, T>, 'id'>): InsertObject<TDB, T> {
  return row as InsertObject<TDB, T>;
}
