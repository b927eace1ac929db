import type { EntityManager } from '@mikro-orm/postgresql';
import { crossTenantDb } from '../../db/kysely.ts';

/*
 * The two questions asked before the tenant is known: whose account an email is (sign-in), and whose session a cookie
 * token is (every dashboard request). An operator path (scripts/check-layers.ts OPERATOR_PATHS): they read across
 * tenants with `crossTenantDb`; what follows runs with the tenant's scoped handle.
 */

/** The accounts with this email (case-insensitive) in any tenant, oldest first, with their tenant. */
export async function findAccountsByEmail(em: EntityManager, email: string, limit: number) {
  return crossTenantDb(em)
    .selectFrom('users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .select([
      'u.id',
      'u.name',
      'u.email',
      'u.role',
      'u.password_hash',
      't.id as tenant_id',
      't.slug as tenant_slug',
      't.name as tenant_name',
      't.default_language',
      't.api_enabled',
    ])
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.trim().toLowerCase()))
    .orderBy('u.id')
    .limit(limit)
    .execute();
}

/** The live session (not signed out, not expired) whose token has this SHA-256, with its user's role and email. */
export async function findLiveSession(em: EntityManager, tokenHash: string) {
  return crossTenantDb(em)
    .selectFrom('admin_sessions as s')
    .innerJoin('users as u', (join) => join.onRef('u.id', '=', 's.user_id').onRef('u.tenant_id', '=', 's.tenant_id'))
    .select(['s.id', 's.tenant_id', 's.user_id', 'u.role', 'u.email'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date())
    .executeTakeFirst();
}
