/**
 * `@careers/core/operations`: what an operator does to a database — migrate, import tenants, manage API keys and
 * webhook endpoints, run the embedded PostgreSQL with the demo data (the `careers` CLI and `pnpm start`).
 */
export { openOrm } from './db/orm.ts';
export { migrateUp } from './db/migrate.ts';
export { kyselyOf } from './db/kysely.ts';
export { serviceContext } from './modules/service-context.ts';
export { startEmbeddedPostgres, type TEmbeddedPostgres } from './db/embedded.ts';
export { coreEnv } from './env.ts';
export { installJobQueues } from './jobs/install.ts';
export { importTenantDocument, type TImportCounts } from './modules/tenants/import/tenant-import.service.ts';
export { createApiKey, listApiKeys, revokeApiKey, type TApiKeyDto } from './modules/api-keys/api-key.service.ts';
export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  sendTestEvent,
} from './modules/webhooks/webhook.service.ts';
export { sweepRetention, type TSweepResult } from './modules/privacy/retention.service.ts';
export { eraseByEmail } from './modules/privacy/erasure.service.ts';
export { auditActor, recordOperatorAudit } from './modules/privacy/audit-log.service.ts';
export { ownerTenant } from './modules/tenants/owner-tenant.ts';
export { buildDemoDocument, DEMO_ADMIN, DEMO_API_KEY } from './demo/demo-tenant.ts';
export { DEMO_PUBLISHABLE_KEY, ensureDemoSiteKey } from './demo/demo-site-key.ts';
export { buildLargeDocument } from './demo/large-tenant.ts';
