import { defineEntity, p } from '@mikro-orm/core';

/** What a second application to the same vacancy with the same email does: `allow` it, or `reject` it with 409. */
export const DUPLICATE_APPLICATION_POLICIES = ['allow', 'reject'] as const;
export type TDuplicateApplicationPolicy = (typeof DUPLICATE_APPLICATION_POLICIES)[number];

export const TenantSchema = defineEntity({
  name: 'Tenant',
  tableName: 'tenants',
  properties: {
    id: p.integer().primary(),
    slug: p.string().length(100).unique(),
    name: p.string().length(255),
    defaultLanguage: p.string().length(2).default('en'),
    apiEnabled: p.boolean().default(true),
    duplicateApplications: p.enum(DUPLICATE_APPLICATION_POLICIES).default('allow'),
    careerSiteDomain: p.string().length(255).nullable(),
    urlPattern: p.string().length(2048).nullable(),
    domains: p.array().default([]),
    /** The tenant document's `privacy` object (privacySettingsOf reads it). */
    privacy: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    /** ISO 3166-1 alpha-2: where a remote vacancy's applicants may be when it names no countries. */
    defaultCountry: p.string().length(2).nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    /** Bumped by database triggers whenever the tenant's public content changes (see the content-version migration). */
    contentVersion: p.bigint('number').default(0),
  },
});
export class Tenant extends TenantSchema.class {}
TenantSchema.setClass(Tenant);
