import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';
import { User } from '../users/user.entity.ts';

/** A signed-in dashboard session; the cookie holds a random token, the table only its SHA-256. */
export const AdminSessionSchema = defineEntity({
  name: 'AdminSession',
  tableName: 'admin_sessions',
  properties: {
    id: p.integer().primary(),
    tokenHash: p.string().length(64).unique(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: p.datetime().defaultRaw('now()'),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
});
export class AdminSession extends AdminSessionSchema.class {}
AdminSessionSchema.setClass(AdminSession);
