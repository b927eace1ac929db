import type { InsertObject, Kysely } from 'kysely';
import type { EntityManager, InferKyselyDB } from '@mikro-orm/postgresql';
import { entities } from './entities.ts';
import { TenantScopePlugin } from './tenant-scope.ts';
import { followReplicaScope } from './read-replica.ts';

type TPivotTables = {
  vacancy_job_types: { vacancy_id: number; job_type_id: number };
  vacancy_experience_levels: { vacancy_id: number; experience_level_id: number };
  vacancy_education_levels: { vacancy_id: number; education_level_id: number };
  vacancy_tags: { vacancy_id: number; tag_id: number };
  article_tags: { article_id: number; tag_id: number };
  candidate_users: { candidate_id: number; user_id: number };
};

/** Typed rows of every table, inferred from the entities (snake_case columns), plus the pivot tables. */
export type TDB = InferKyselyDB<(typeof entities)[number]> & TPivotTables;
export type TDb = Kysely<TDB>;

/** Kysely bound to the EntityManager's connection (and its transaction, if any). */
export function kyselyOf(em: EntityManager): TDb {
  return em.getKysely<TDB>();
}

/** Kysely that can only see and change the rows of one tenant (on the read replica inside `ReadReplica.run`). */
export function tenantKysely(em: EntityManager, tenantId: number): TDb {
  return followReplicaScope(kyselyOf(em).withPlugin(new TenantScopePlugin(tenantId)), tenantId);
}

/** A row whose id is serial (the entity-derived row type requires every id). */
export function serialRow<T extends keyof TDB>(row: Omit<InsertObject<TDB, T>, 'id'>): InsertObject<TDB, T> {
  return row as InsertObject<TDB, T>;
}
