import type { MikroORM } from '@mikro-orm/postgresql';
import { kyselyOf } from '../db/kysely.ts';
import { displayStart, hashApiKey } from '../modules/api-keys/api-key.crypto.ts';
import { normalizeOrigin, PUBLISHABLE_SCOPES } from '../modules/api-keys/api-key.origins.ts';

/** Plaintext of acme's publishable key for the example career site that `pnpm start` serves (public by design). */
export const DEMO_PUBLISHABLE_KEY = 'pk_test_demo_acme_career_site_5e8c1a';
const NAME = 'Demo career site (browser)';

/**
 * Makes sure acme has the demo career site's publishable key, allowed for `origin` (the address the site is served
 * on, which may change between runs with CAREER_SITE_PORT). Also on a database seeded before this key existed.
 * Returns false when there is no acme tenant (a database without the demo).
 */
export async function ensureDemoSiteKey(orm: MikroORM, origin: string): Promise<boolean> {
  const db = kyselyOf(orm.em.fork());
  const tenant = await db.selectFrom('tenants').select('id').where('slug', '=', 'acme').executeTakeFirst();
  if (!tenant) return false;
  const keyHash = hashApiKey(DEMO_PUBLISHABLE_KEY);
  const updated = await db
    .updateTable('api_keys')
    .set({ origins: [normalizeOrigin(origin) ?? origin], revoked_at: null })
    .where('key_hash', '=', keyHash)
    .where('tenant_id', '=', tenant.id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return true;
  await db
    .insertInto('api_keys')
    // The inferred insert type asks for `id`, which the serial column generates.
    .values({
      tenant_id: tenant.id,
      name: NAME,
      key_hash: keyHash,
      start: displayStart(DEMO_PUBLISHABLE_KEY),
      kind: 'publishable',
      scopes: [...PUBLISHABLE_SCOPES],
      origins: [normalizeOrigin(origin) ?? origin],
    } as never)
    .execute();
  return true;
}
