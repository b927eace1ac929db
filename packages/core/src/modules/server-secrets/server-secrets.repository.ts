import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { crossTenantDb } from '../../db/kysely.ts';

/**
 * The stored secret of this name, made now when there is none. An operator path (scripts/check-layers.ts): the secrets
 * belong to the service, not to a tenant, so `crossTenantDb`.
 */
export async function readOrMakeSecret(em: EntityManager, name: string): Promise<Buffer> {
  const db = crossTenantDb(em);
  // Two processes may make one at once: the first insert wins and both read it.
  await db
    .insertInto('server_secrets')
    .values({ name, secret: randomBytes(32).toString('base64') } as never)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.secret, 'base64');
}
