import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';
import { User } from '../users/user.entity.ts';

export const CANDIDATE_STATUSES = [
  'potential',
  'waiting_for_intake',
  'intake_scheduled',
  'active_mediation',
  'latent_mediation',
  'upcoming_employee',
  'employee',
  'ex_employee',
  'do_not_contact',
] as const;
export type TCandidateStatus = (typeof CANDIDATE_STATUSES)[number];

/** What the worker read from the resume a candidate was made from (stored as written; see resumes/resume-profile/). */
export type TCandidateResumeProfile = {
  headline: string | null;
  location: { city: string | null; country_code: string | null } | null;
  links: { type: 'linkedin' | 'github' | 'website'; url: string }[];
  experience: {
    title: string | null;
    employer: string | null;
    start: string | null;
    end: string | null;
    current: boolean;
  }[];
  education: { degree: string | null; institution: string | null; start: string | null; end: string | null }[];
  skills: string[];
  languages: { language: string; level: 'native' | 'fluent' | 'professional' | 'basic' | null }[];
};

export const CandidateSchema = defineEntity({
  name: 'Candidate',
  tableName: 'candidates',
  uniques: [
    { properties: ['tenant', 'slug'] },
    {
      name: 'candidates_tenant_email_unique',
      expression: 'create unique index "candidates_tenant_email_unique" on "candidates" ("tenant_id", lower("email"))',
    },
  ],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    slug: p.string().length(255),
    firstName: p.string().length(255),
    lastName: p.string().length(255),
    email: p.string().length(255).nullable(),
    phone: p.string().length(64).nullable(),
    linkedinUrl: p.string().length(2048).nullable(),
    status: p.enum(CANDIDATE_STATUSES).default('potential'),
    /** Created from a resume without an email: an administrator must complete it. */
    needsCompletion: p.boolean().default(false),
    /** The profile read from the candidate's latest resume; null for candidates not made from a resume. */
    profile: p.json<TCandidateResumeProfile>().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
    users: () =>
      p.manyToMany(User).pivotTable('candidate_users').joinColumn('candidate_id').inverseJoinColumn('user_id'),
  },
});
export class Candidate extends CandidateSchema.class {}
CandidateSchema.setClass(Candidate);

export const IntakeSchema = defineEntity({
  name: 'Intake',
  tableName: 'intakes',
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    candidate: () => p.manyToOne(Candidate).deleteRule('cascade').index(),
    user: () => p.manyToOne(User).nullable().deleteRule('set null'),
    status: p.string().length(50).default('open'),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class Intake extends IntakeSchema.class {}
IntakeSchema.setClass(Intake);
