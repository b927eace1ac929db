import { Kysely, PostgresDialect, type InsertObject, type PostgresPoolClient } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
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
export function crossTenantDb(em: EntityManager): TDb;
/**
 * On a connection of its own (`connectionOfItsOwn`): Kysely borrows the client for every query, and releasing it stays
 * the caller's.
 */
export function crossTenantDb(client: pg.PoolClient): TDb;
export function crossTenantDb(on: EntityManager | pg.PoolClient): TDb {
  if ('getKysely' in on) return kyselyOf(on);
  const borrowed = { query: on.query.bind(on), release: () => {} } as unknown as PostgresPoolClient;
  return new Kysely<TDB>({
    dialect: new PostgresDialect({ pool: { connect: async () => borrowed, end: async () => {}, options: {} } }),
  });
}

/** A connection taken from the ORM's pool for a caller that needs the driver's client (COPY); the caller releases it. */
export async function connectionOfItsOwn(em: EntityManager): Promise<pg.PoolClient> {
  const pool = (await em.getConnection().getNativeClient()) as pg.Pool;
  return pool.connect();
}

/** A row whose id is serial (the entity-derived row type requires every id). */
export function serialRow<T extends keyof TDB>(row: Omit<InsertObject<TDB, T>, 'id'>): InsertObject<TDB, T> {
  return row as InsertObject<TDB, T>;
}
