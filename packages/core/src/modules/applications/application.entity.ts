import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';
import { Vacancy } from '../vacancies/vacancy.entity.ts';
import { Candidate } from '../candidates/candidate.entity.ts';
import { ApiKey } from '../api-keys/api-key.entity.ts';

export const ApplicationSchema = defineEntity({
  name: 'Application',
  tableName: 'applications',
  indexes: [{ properties: ['tenant', 'createdAt'] }],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    vacancy: () => p.manyToOne(Vacancy).deleteRule('cascade').index(),
    candidate: () => p.manyToOne(Candidate).deleteRule('cascade').index(),
    apiKey: () => p.manyToOne(ApiKey).nullable().deleteRule('set null'),
    privacyPolicyAccepted: p.boolean().default(false),
    /** When consent to the privacy policy was given (null without consent). */
    privacyPolicyAcceptedAt: p.datetime().nullable(),
    /** Consent to processing (CONTRACT "Privacy by design"); given at `createdAt`, under `consentPolicyVersion`. */
    consentProcessing: p.boolean().default(false),
    /** Consent to be kept in the talent pool (retention: `talent_pool_retention_days`). */
    consentTalentPool: p.boolean().default(false),
    /** The tenant's privacy policy version when the application was made. */
    consentPolicyVersion: p.string().length(100).nullable(),
    trackingIpAddress: p.string().length(45).nullable(),
    trackingUserAgent: p.text().nullable(),
    trackingReferrer: p.text().nullable(),
    /** Answers to the vacancy's questions as validated on submission (key → string, number, boolean or list of option values). */
    answers: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class Application extends ApplicationSchema.class {}
ApplicationSchema.setClass(Application);

export const DOCUMENT_TYPES = ['resume', 'cover_letter', 'additional'] as const;

export const DocumentSchema = defineEntity({
  name: 'Document',
  tableName: 'documents',
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    application: () => p.manyToOne(Application).deleteRule('cascade').index(),
    type: p.enum(DOCUMENT_TYPES),
    position: p.integer().default(0),
    filename: p.string().length(255),
    mimeType: p.string().length(255),
    size: p.integer(),
    content: p.blob().lazy(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class Document extends DocumentSchema.class {}
DocumentSchema.setClass(Document);
