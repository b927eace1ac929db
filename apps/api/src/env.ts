import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseEnv, DEFAULT_METRICS_HOST } from '@careers/core';

const ZApiEnv = z.object({
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public base address without /v1 (scheme, host, optional path prefix), used in pagination links. */
  PUBLIC_URL: z.string().url().optional(),
  /** Express "trust proxy" setting, for X-Forwarded-* behind a load balancer (e.g. 1, or "loopback"). */
  TRUST_PROXY: z.string().optional(),
  /** How long SIGTERM waits for in-flight requests before closing. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Port of the operations endpoint (GET /metrics, GET /livez), apart from the public one; 0 turns it off. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),
  /** Address it listens on: only this machine unless told (e.g. 0.0.0.0 for a scraper on the private network). */
  METRICS_HOST: z.string().min(1).default(DEFAULT_METRICS_HOST),
  /** Memory budget of the content cache (vacancy pages, facets, details, locations), in MB; 0 turns it off. */
  CONTENT_CACHE_MB: z.coerce.number().min(0).max(4096).default(24),
  /**
   * Reads that need real database work (content-cache misses, uncached lists) one key may run at once in this
   * process, and all keys together. The defaults follow the cores (a read mostly waits on the database, so two per
   * core): far more at once than the machine can run only makes every other key wait.
   */
  EXPENSIVE_READS_PER_KEY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2 * availableParallelism()),
  EXPENSIVE_READS_PER_PROCESS: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .default(4 * availableParallelism()),
  /** A request body that stops arriving for this long is dropped (408). CONTRACT: 10 s; shorter only for tests. */
  BODY_STALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
});
export type TApiEnv = z.infer<typeof ZApiEnv>;

export function apiEnv(source: NodeJS.ProcessEnv = process.env): TApiEnv {
  return parseEnv(ZApiEnv, source);
}
