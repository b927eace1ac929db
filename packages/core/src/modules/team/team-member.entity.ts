import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';
import type { TTranslations } from '../taxonomies/taxonomy.entity.ts';

export type TAvatar = { small: string | null; medium: string | null; large: string | null };

export const TeamRoleSchema = defineEntity({
  name: 'TeamRole',
  tableName: 'team_roles',
  uniques: [{ properties: ['tenant', 'name'] }],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    /** Machine name, e.g. hr_manager; filters compare it case-insensitively. */
    name: p.string().length(100),
    label: p.json<TTranslations>(),
  },
});
export class TeamRole extends TeamRoleSchema.class {}
TeamRoleSchema.setClass(TeamRole);

export const TeamMemberSchema = defineEntity({
  name: 'TeamMember',
  tableName: 'team_members',
  indexes: [
    {
      name: 'team_members_given_name_idx',
      expression:
        'create index "team_members_given_name_idx" on "team_members" ("tenant_id", lower("given_name"), "id") where "employed"',
    },
    {
      name: 'team_members_family_name_idx',
      expression:
        'create index "team_members_family_name_idx" on "team_members" ("tenant_id", lower("family_name"), "id") where "employed"',
    },
  ],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    givenName: p.string().length(255),
    familyName: p.string().length(255),
    email: p.string().length(255),
    jobTitle: p.string().length(255).nullable(),
    phone: p.string().length(32).nullable(),
    role: () => p.manyToOne(TeamRole).nullable().deleteRule('set null').index(),
    avatar: p.json<TAvatar>().nullable(),
    employed: p.boolean().default(true),
  },
});
export class TeamMember extends TeamMemberSchema.class {}
TeamMemberSchema.setClass(TeamMember);
