import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

/** What the audit log records (CONTRACT "Audit log"). */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.revoked',
  'api_access.switched',
  'webhook.created',
  'webhook.rotated',
  'webhook.deleted',
  'candidate.exported',
  'candidate.erased',
  'retention.swept',
] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who did what and when, per tenant: `actor` is an administrator's email, an API key (`api key #id`), the CLI or the
 * retention sweep; `subject` names the object by id only — never a candidate's personal data.
 */
export const AuditLogEntrySchema = defineEntity({
  name: 'AuditLogEntry',
  tableName: 'audit_log_entries',
  indexes: [{ properties: ['tenant', 'id'] }],
  properties: {
    id: p.bigint('number').primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    actor: p.string().length(320),
    action: p.enum(AUDIT_ACTIONS),
    /** e.g. `candidate 12`, `api key 3`; null when the action is about the tenant itself. */
    subject: p.string().length(200).nullable(),
    /** Counts and flags (never personal data). */
    details: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class AuditLogEntry extends AuditLogEntrySchema.class {}
AuditLogEntrySchema.setClass(AuditLogEntry);
