import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { crossTenantDb } from '../../db/kysely.ts';

/** Per database (an ORM's driver), per name: every fork of one ORM shares the secrets it has read. */
const loaded = new WeakMap<object, Map<string, Promise<Buffer>>>();

/**
 * A secret the service keeps for itself (32 random bytes), by name: made by the first process that needs it, stored
 * in `server_secrets`, and read from there by every other process, so they all agree without any configuration. Read
 * once per process (and database); a failed read is tried again next time. An operator path (scripts/check-layers.ts):
 * the secrets belong to the service, not to a tenant, so `crossTenantDb`.
 */
export function serverSecret(em: EntityManager, name: string): Promise<Buffer> {
  const driver = em.getDriver();
  let secrets = loaded.get(driver);
  if (!secrets) loaded.set(driver, (secrets = new Map()));
  let secret = secrets.get(name);
  if (!secret) {
    secret = readOrMake(em, name);
    secrets.set(name, secret);
    secret.catch(() => secrets.delete(name));
  }
  return secret;
}

async function readOrMake(em: EntityManager, name: string): Promise<Buffer> {
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
