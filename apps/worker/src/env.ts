import { z } from 'zod';
import { parseEnv, DEFAULT_METRICS_HOST } from '@careers/core';

const wholeNumber = (min: number) => z.coerce.number().int().min(min);

const ZWorkerEnv = z.object({
  NODE_ENV: z.string().optional(),
  /** Resume jobs processed at the same time by this process. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** How long SIGTERM waits for active jobs before giving up. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** How often an idle worker looks for new jobs. */
  JOB_POLLING_INTERVAL_SECONDS: z.coerce.number().min(0.5).default(1),
  /** How often expired jobs and missed heartbeats are detected (and their jobs retried). */
  JOB_SUPERVISE_INTERVAL_SECONDS: wholeNumber(1).default(30),
  /** Overrides of the resume queue's settings (defaults in core's job definition). */
  RESUME_JOB_EXPIRE_SECONDS: wholeNumber(1).optional(),
  RESUME_JOB_HEARTBEAT_SECONDS: wholeNumber(10).optional(),
  RESUME_JOB_RETRY_LIMIT: wholeNumber(0).optional(),
  RESUME_JOB_RETRY_DELAY_SECONDS: wholeNumber(0).optional(),
  /**
   * Overrides of the limits of one resume parse (defaults in core's resume-sandbox.ts: 176 MB, 20 s). Each parse runs
   * in a process of its own, one per job running at once; one that overruns is killed and its resume ends `failed`.
   */
  RESUME_PARSE_MEMORY_MB: wholeNumber(96).max(4096).optional(),
  RESUME_PARSE_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).optional(),
  /** The same for a resume read by OCR (a photo, a scan, a PDF without text; default 60 s). */
  RESUME_OCR_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).optional(),
  /** Port of the worker's Prometheus endpoint (GET /metrics); 0 turns it off. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** Address it listens on: only this machine unless told (METRICS_HOST, shared with the API; WORKER_METRICS_HOST wins). */
  METRICS_HOST: z.string().min(1).default(DEFAULT_METRICS_HOST),
  WORKER_METRICS_HOST: z.string().min(1).optional(),
  /** How often the worker looks for vacancies and articles whose published_at / ends_at has passed (their events). */
  EVENTS_ANNOUNCE_INTERVAL_SECONDS: wholeNumber(1).max(30).default(15),
  /** Days events (and change-feed cursors) are kept; at least 30. */
  EVENT_RETENTION_DAYS: wholeNumber(30).default(30),
  /** The privacy retention sweep runs this often (at most daily). */
  PRIVACY_SWEEP_INTERVAL_SECONDS: wholeNumber(60).max(86_400).default(3600),
  /** Tests only (NODE_ENV=test): hold every resume job this long once it is marked processing. */
  RESUME_TEST_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** Webhook deliveries in flight at the same time in this process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** How often an idle worker looks for new events and due webhook deliveries. */
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(1000),
  /** A receiver that has not answered within this is a failed attempt. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** How long a claimed delivery stays with this worker; a killed worker's deliveries are sent again after it. */
  WEBHOOK_LEASE_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Seconds before each retry, comma-separated (default 5,300,1800,7200,18000,36000,36000); shorter in tests. */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'a comma-separated list of seconds')
    .transform((value) => value.split(',').map(Number))
    .optional(),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv> & { WORKER_METRICS_HOST: string };

export function workerEnv(source: NodeJS.ProcessEnv = process.env): TWorkerEnv {
  const env = parseEnv(ZWorkerEnv, source);
  return { ...env, WORKER_METRICS_HOST: env.WORKER_METRICS_HOST ?? env.METRICS_HOST };
}
