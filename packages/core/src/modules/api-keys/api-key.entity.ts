import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    name: p.string().length(255),
    /** SHA-256 hex digest of the full key; the plaintext is never stored. */
    keyHash: p.string().length(64).unique(),
    /** First characters of the key, shown to administrators to recognise it. */
    start: p.string().length(20),
    scopes: p.array().default([]),
    /** `secret` (server to server) or `publishable` (a career site in the browser, bound to `origins`). */
    kind: p.string().length(20).default('secret'),
    /** Allowed origins of a publishable key (`https://host[:port]`, lower-case); null for a secret key. */
    origins: p.array().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
