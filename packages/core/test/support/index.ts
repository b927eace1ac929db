/**
 * `@careers/core/testing`: test support for every package's tests and the benchmarks — throw-away databases,
 * crafted files, a webhook receiver — and the internals their tests set up or assert on directly.
 */
import type {} from './global-setup.ts';

export * from './database.ts';
export * from './job-database.ts';
export * from './crafted-resumes.ts';
export * from './resume-corpus.ts';
export * from './webhook-receiver.ts';
export * from './pgbouncer-config.ts';
export * from './database-dump.ts';

export { kyselyOf, tenantKysely, type TDb } from '../../src/db/kysely.ts';
export { JobSender } from '../../src/jobs/sender.ts';
export { LARGE_API_KEY } from '../../src/demo/large-tenant.ts';
export { seededRandom, type TRandom } from '../../src/demo/random.ts';
export { hashApiKey } from '../../src/modules/api-keys/api-key.crypto.ts';
export { decodeBase64Strict } from '../../src/modules/applications/base64.ts';
export { ContentCache, estimateBytes } from '../../src/modules/content/content-cache.ts';
export { ContentStateReader } from '../../src/modules/content/content.repository.ts';
export { CountedJson, SerializedForm } from '../../src/modules/content/serialized-answer.ts';
export { ReadLimiter } from '../../src/modules/content/read-limiter.ts';
export { recordEvent } from '../../src/modules/events/events.service.ts';
export { sweepExpiredIdempotencyRecords } from '../../src/modules/idempotency/idempotency.service.ts';
export { hitRateLimit } from '../../src/modules/rate-limits/rate-limit.service.ts';
export { RATE_LIMITS } from '../../src/modules/rate-limits/rate-limit-buckets.ts';
export { DOC_MIME, DOCX_MIME, JPEG_MIME, PDF_MIME, PNG_MIME } from '../../src/modules/resumes/resume-file.ts';
export { ocrUnavailableReason } from '../../src/modules/resumes/resume-ocr.ts';
export { acceptResume, type TAcceptResume } from '../../src/modules/resumes/resume-intake.service.ts';
export { serviceContext } from '../../src/modules/service-context.ts';
export type { TTenantDocument } from '../../src/modules/tenants/import/tenant-document.schema.ts';
export {
  findVacancyPageAnchors,
  vacancyPageQuery,
  type TVacancySort,
} from '../../src/modules/vacancies/vacancy.repository.ts';
export { NO_VACANCY_FILTERS } from '../../src/modules/vacancies/vacancy-filters.ts';
export { ANCHOR_SPACING, DEEP_OFFSET } from '../../src/modules/vacancies/vacancy.service.ts';
export { listWebhookDeliveries, replayWebhookDelivery } from '../../src/modules/webhooks/webhook.service.ts';
export { APP_ERROR_STATUS } from '../../src/lib/errors.ts';
export * from './replicated-postgres.ts';
export * from './search-judgements.ts';
