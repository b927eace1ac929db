import { TenantSchema } from '../modules/tenants/tenant.entity.ts';
import { ApiKeySchema } from '../modules/api-keys/api-key.entity.ts';
import { UserSchema } from '../modules/users/user.entity.ts';
import { LocationSchema } from '../modules/locations/location.entity.ts';
import { CompanyLocationSchema, CompanySchema } from '../modules/companies/company.entity.ts';
import {
  Department,
  EducationLevel,
  ExperienceLevel,
  JobType,
  TagSchema,
} from '../modules/taxonomies/taxonomy.entity.ts';
import { VacancySchema } from '../modules/vacancies/vacancy.entity.ts';
import {
  SearchSynonymsSchema,
  SearchWordSchema,
  VacancySearchDocumentSchema,
} from '../modules/vacancies/vacancy-search.entity.ts';
import { TeamMemberSchema, TeamRoleSchema } from '../modules/team/team-member.entity.ts';
import { ArticleSchema, ArticleTranslationSchema } from '../modules/articles/article.entity.ts';
import { CandidateSchema, IntakeSchema } from '../modules/candidates/candidate.entity.ts';
import { ApplicationSchema, DocumentSchema } from '../modules/applications/application.entity.ts';
import { ResumeProcessingSchema } from '../modules/resumes/resume-processing.entity.ts';
import { RateLimitWindowSchema } from '../modules/rate-limits/rate-limit.entity.ts';
import { IdempotencyRecordSchema } from '../modules/idempotency/idempotency-key.entity.ts';
import { AdminSessionSchema } from '../modules/admin/admin-session.entity.ts';
import { KnownSignInAddressSchema } from '../modules/admin/known-sign-in-address.entity.ts';
import { AnnouncedVisibilitySchema, EventRetentionSchema, EventSchema } from '../modules/events/event.entity.ts';
import { AuditLogEntrySchema } from '../modules/privacy/audit-log.entity.ts';
import { ServerSecretSchema } from '../modules/server-secrets/server-secret.entity.ts';
import {
  WebhookDeliverySchema,
  WebhookDispatchCursorSchema,
  WebhookEndpointSchema,
} from '../modules/webhooks/webhook.entity.ts';

export const entities = [
  TenantSchema,
  ApiKeySchema,
  UserSchema,
  LocationSchema,
  CompanySchema,
  CompanyLocationSchema,
  Department,
  JobType,
  ExperienceLevel,
  EducationLevel,
  TagSchema,
  VacancySchema,
  VacancySearchDocumentSchema,
  SearchWordSchema,
  SearchSynonymsSchema,
  TeamRoleSchema,
  TeamMemberSchema,
  ArticleSchema,
  ArticleTranslationSchema,
  CandidateSchema,
  IntakeSchema,
  ApplicationSchema,
  DocumentSchema,
  ResumeProcessingSchema,
  RateLimitWindowSchema,
  IdempotencyRecordSchema,
  AdminSessionSchema,
  EventSchema,
  AnnouncedVisibilitySchema,
  EventRetentionSchema,
  WebhookEndpointSchema,
  WebhookDeliverySchema,
  WebhookDispatchCursorSchema,
  AuditLogEntrySchema,
  ServerSecretSchema,
  KnownSignInAddressSchema,
] as const;
