import type { TDb } from '../../db/kysely.ts';

/** The signed-in user and their tenant (`db` is tenant-scoped); undefined for one deleted meanwhile. */
export async function findAdminUserAndTenant(db: TDb, userId: number) {
  const [user, tenant] = await Promise.all([
    db.selectFrom('users').select(['id', 'name', 'email', 'role']).where('id', '=', userId).executeTakeFirst(),
    db.selectFrom('tenants').select(['id', 'slug', 'name', 'default_language', 'api_enabled']).executeTakeFirst(),
  ]);
  return user && tenant ? { user, tenant } : undefined;
}

/** Whether the tenant has API access, and how many of its keys are not revoked. */
export async function findApiAccess(db: TDb): Promise<{ apiEnabled: boolean; activeKeys: number } | undefined> {
  const [tenant, keys] = await Promise.all([
    db.selectFrom('tenants').select('api_enabled').executeTakeFirst(),
    db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return tenant ? { apiEnabled: tenant.api_enabled, activeKeys: Number(keys.n) } : undefined;
}

/** Switches the tenant's API access; undefined when the tenant is gone. */
export async function updateApiAccess(db: TDb, enabled: boolean): Promise<boolean | undefined> {
  const row = await db.updateTable('tenants').set({ api_enabled: enabled }).returning('api_enabled').executeTakeFirst();
  return row?.api_enabled;
}
