import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './database.ts';
import { openOrm } from '../../src/db/orm.ts';
import { kyselyOf } from '../../src/db/kysely.ts';

type TLocation = { id: number; tenant_id: number; slug: string; name: string };

/**
 * An ORM on a fresh database with two tenants (1 "a", 2 "b") that each have a location with the slug `same`
 * (ids 1 and 2), and `moreLocations`: the fixture of the tenant-scoping tests.
 */
export async function openTwoTenantDatabase(moreLocations: TLocation[] = []): Promise<MikroORM> {
  const orm = await openOrm(await createTestDatabase());
  const db = kyselyOf(orm.em.fork());
  await db
    .insertInto('tenants')
    .values([
      { id: 1, slug: 'a', name: 'A' },
      { id: 2, slug: 'b', name: 'B' },
    ])
    .execute();
  await db
    .insertInto('locations')
    .values([
      { id: 1, tenant_id: 1, slug: 'same', name: 'A office' },
      { id: 2, tenant_id: 2, slug: 'same', name: 'B office' },
      ...moreLocations,
    ])
    .execute();
  return orm;
}
