import type { EntityManager } from '@mikro-orm/postgresql';
import { crossTenantDb } from '../../db/kysely.ts';
import { isStorableId } from '../../lib/query.ts';

/** The tables whose rows an operator names by id alone (the `careers` CLI), so their tenant must be looked up. */
export type TOwnedTable = 'api_keys' | 'webhook_endpoints' | 'webhook_deliveries';

/**
 * The tenant owning row `id` of `table` (undefined: no such row). An operator path (scripts/check-layers.ts
 * OPERATOR_PATHS): the one question asked across tenants, so everything after it runs with that tenant's scoped handle.
 */
export async function ownerTenant(em: EntityManager, table: TOwnedTable, id: number): Promise<number | undefined> {
  if (!isStorableId(id)) return undefined;
  const row = await crossTenantDb(em).selectFrom(table).select('tenant_id').where('id', '=', id).executeTakeFirst();
  return row?.tenant_id;
}
