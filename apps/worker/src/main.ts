import { setTimeout as sleep } from 'node:timers/promises';
import { openDeploymentOrm, poolOf, coreEnv, createLogger, createMetrics } from '@careers/core';
import {
  WORKER_DB_TIMEOUTS,
  webhookSecretKey,
  createBoss,
  ensureQueues,
  reconnectBossBeforeSend,
  jobDefinitions,
  startWebhookRunner,
  DEFAULT_DELIVERY_SETTINGS,
  webhookAttemptMetrics,
} from '@careers/core/worker';
import { workerEnv } from './env.ts';
import { startResumeWorker } from './resume-worker.ts';
import { startMetricsServer } from './metrics-server.ts';
import { startEventSchedule } from './events-schedule.ts';

const log = createLogger('worker');
const env = workerEnv();
const { orm, databaseUrl } = await openDeploymentOrm(log, {
  poolSize: Math.max(coreEnv().DB_POOL_SIZE, env.WORKER_CONCURRENCY + 2),
  timeouts: WORKER_DB_TIMEOUTS,
});

const metrics = createMetrics({ processMetrics: true });
const pool = await poolOf(orm);
metrics.observePool(() => pool);
const metricsServer =
  env.WORKER_METRICS_PORT === 0
    ? undefined
    : await startMetricsServer(metrics, { port: env.WORKER_METRICS_PORT, host: env.WORKER_METRICS_HOST, log });

const boss = createBoss(databaseUrl, { role: 'worker', superviseIntervalSeconds: env.JOB_SUPERVISE_INTERVAL_SECONDS });
boss.on('error', (error) => log.error({ err: error }, 'queue error'));
try {
  await boss.start();
} catch (error) {
  log.fatal({ err: error }, 'the job queue schema is missing or behind this code: run `pnpm careers migrate` first');
  await orm.close();
  process.exit(1);
}
// Job fetches and completions wait out a failover (the primary away for seconds) like the ORM's statements.
reconnectBossBeforeSend(boss, WORKER_DB_TIMEOUTS.reconnectForMs);
await ensureQueues(boss, jobDefinitions, {
  ...(env.RESUME_JOB_EXPIRE_SECONDS === undefined ? {} : { expireInSeconds: env.RESUME_JOB_EXPIRE_SECONDS }),
  ...(env.RESUME_JOB_HEARTBEAT_SECONDS === undefined ? {} : { heartbeatSeconds: env.RESUME_JOB_HEARTBEAT_SECONDS }),
  ...(env.RESUME_JOB_RETRY_LIMIT === undefined ? {} : { retryLimit: env.RESUME_JOB_RETRY_LIMIT }),
  ...(env.RESUME_JOB_RETRY_DELAY_SECONDS === undefined ? {} : { retryDelay: env.RESUME_JOB_RETRY_DELAY_SECONDS }),
});

// Lets tests hold a job mid-way (to kill or stop the worker then); ignored outside NODE_ENV=test.
const testDelayMs = env.NODE_ENV === 'test' ? env.RESUME_TEST_DELAY_MS : 0;
const resumeWorker = await startResumeWorker({
  orm,
  boss,
  log,
  concurrency: env.WORKER_CONCURRENCY,
  pollingIntervalSeconds: env.JOB_POLLING_INTERVAL_SECONDS,
  beforeExtract: testDelayMs > 0 ? (signal) => sleep(testDelayMs, undefined, { signal }) : undefined,
  metrics,
  parseLimits: {
    ...(env.RESUME_PARSE_MEMORY_MB === undefined ? {} : { memoryMb: env.RESUME_PARSE_MEMORY_MB }),
    ...(env.RESUME_PARSE_TIMEOUT_SECONDS === undefined ? {} : { timeoutMs: env.RESUME_PARSE_TIMEOUT_SECONDS * 1000 }),
    ...(env.RESUME_OCR_TIMEOUT_SECONDS === undefined ? {} : { ocrTimeoutMs: env.RESUME_OCR_TIMEOUT_SECONDS * 1000 }),
  },
});
const eventSchedule = await startEventSchedule({
  orm,
  boss,
  log,
  announceEverySeconds: env.EVENTS_ANNOUNCE_INTERVAL_SECONDS,
  retentionDays: env.EVENT_RETENTION_DAYS,
  sweepEverySeconds: env.PRIVACY_SWEEP_INTERVAL_SECONDS,
  pollingIntervalSeconds: env.JOB_POLLING_INTERVAL_SECONDS,
});

// Webhooks: events → deliveries → signed POSTs. Without the key that decrypts endpoint secrets nothing is sent
// (deliveries wait in the table until a worker with the key runs).
const webhookKey = webhookSecretKey();
const webhooks = webhookKey
  ? startWebhookRunner({
      orm,
      log,
      concurrency: env.WEBHOOK_CONCURRENCY,
      pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
      onAttempt: webhookAttemptMetrics(metrics.registry),
      settings: {
        ...DEFAULT_DELIVERY_SETTINGS,
        secretKey: webhookKey,
        allowInsecureLocal: coreEnv().WEBHOOK_ALLOW_INSECURE_LOCAL,
        timeoutMs: env.WEBHOOK_TIMEOUT_MS,
        leaseSeconds: Math.max(env.WEBHOOK_LEASE_SECONDS, Math.ceil(env.WEBHOOK_TIMEOUT_MS / 1000) + 1),
        retryScheduleSeconds: env.WEBHOOK_RETRY_SCHEDULE_SECONDS ?? DEFAULT_DELIVERY_SETTINGS.retryScheduleSeconds,
      },
    })
  : undefined;
if (!webhooks) log.warn('WEBHOOK_SECRET_KEY is not set: webhooks are not delivered by this worker');
log.info(
  {
    concurrency: env.WORKER_CONCURRENCY,
    resume_parse_limits: resumeWorker.sandbox.limits,
    webhook_concurrency: webhooks ? env.WEBHOOK_CONCURRENCY : 0,
  },
  'worker started',
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping: finishing active jobs');
  eventSchedule.stop();
  await Promise.all([
    boss.stop({ graceful: true, timeout: env.SHUTDOWN_TIMEOUT_MS }),
    webhooks?.stop(env.SHUTDOWN_TIMEOUT_MS),
  ]);
  resumeWorker.close();
  await metricsServer?.close();
  await orm.close();
  log.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
