/** `@careers/core/worker`: the jobs, their handlers and the webhook runner the worker process runs. */
export { createBoss } from './jobs/boss.ts';
export { ensureQueues } from './jobs/define-job.ts';
export { jobDefinitions } from './jobs/registry.ts';
export { processResumeJob, ZProcessResumePayload } from './jobs/process-resume.job.ts';
export { announceVisibilityJob, pruneEventsJob, sweepRetentionJob } from './jobs/events.jobs.ts';
export { sweepRetention } from './modules/privacy/retention.service.ts';
export { WORKER_DB_TIMEOUTS } from './db/orm.ts';
export { reconnectBossBeforeSend } from './db/fresh-connection.ts';
export { webhookSecretKey } from './env.ts';
export { announceTimePassing, pruneExpiredEvents } from './modules/events/events.jobs.service.ts';
export {
  EXHAUSTED_ERROR,
  markResumeExhausted,
  processResume,
  type TProcessResumeOptions,
} from './modules/resumes/process-resume.ts';
export { RESUME_LIMITS_ERROR, ResumeSandbox, type TResumeSandboxLimits } from './modules/resumes/resume-sandbox.ts';
export { DEFAULT_DELIVERY_SETTINGS } from './modules/webhooks/webhook-delivery.ts';
export { webhookAttemptMetrics } from './modules/webhooks/webhook-metrics.ts';
export { startWebhookRunner, type TWebhookRunner } from './modules/webhooks/webhook-runner.ts';
