import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  uniques: [
    {
      name: 'users_tenant_email_unique',
      expression: 'create unique index "users_tenant_email_unique" on "users" ("tenant_id", lower("email"))',
    },
  ],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    name: p.string().length(255),
    email: p.string().length(255),
    role: p.string().length(50),
    /** argon2id hash; null when the user cannot sign in. */
    passwordHash: p.string().length(255).nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);
