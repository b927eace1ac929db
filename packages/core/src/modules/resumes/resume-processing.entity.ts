import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';
import { User } from '../users/user.entity.ts';
import { Candidate, Intake } from '../candidates/candidate.entity.ts';

export const PROCESSING_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;

/** One uploaded resume and the outcome of turning it into a candidate. */
export const ResumeProcessingSchema = defineEntity({
  name: 'ResumeProcessing',
  tableName: 'resume_processings',
  indexes: [{ properties: ['tenant', 'status', 'updatedAt'] }],
  properties: {
    id: p.uuid().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    status: p.enum(PROCESSING_STATUSES).default('queued'),
    filename: p.string().length(255),
    mimeType: p.string().length(255),
    size: p.integer(),
    content: p.blob().lazy(),
    createIntake: p.boolean().default(false),
    candidate: () => p.manyToOne(Candidate).nullable().deleteRule('set null'),
    intake: () => p.manyToOne(Intake).nullable().deleteRule('set null'),
    error: p.text().nullable(),
    attempts: p.integer().default(0),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class ResumeProcessing extends ResumeProcessingSchema.class {}
ResumeProcessingSchema.setClass(ResumeProcessing);
