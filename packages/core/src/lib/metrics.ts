import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The numbers a pg pool keeps about itself (pg-pool's Pool has these). */
/** Where content-cache misses were computed, and replica failures (kept by db/read-replica.ts). */
export type TReplicaStats = { onReplica: number; onPrimary: number; failures: number };

export type TPoolStats = { totalCount: number; idleCount: number; waitingCount: number; options: { max?: number } };

/** Where the key-cache counters live (ApiKeyVerifier). */
export type TKeyCacheStats = { cacheHits: number; cacheMisses: number };

/** Where the content-cache numbers live (ContentCache). */
export type TContentCacheStats = { hits: number; misses: number; size: { entries: number; bytes: number } };

/** Where the expensive-read numbers live (ReadLimiter). */
export type TReadLimiterStats = { shed: number; load: { running: number; waiting: number } };

/** Where the body-budget numbers live (the API's BodyBudget). */
export type TBodyBudgetStats = { bytesInUse: number; limit: number };

export type TMetrics = {
  registry: Registry;
  /** Requests by method, documented route template (not the raw URL) and status. */
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  /** 429 answers by rate-limited operation. */
  rateLimitRejections: Counter<'operation'>;
  /** Resume jobs by outcome: completed, failed (unreadable file), skipped, retry (threw), invalid, exhausted. */
  resumeJobs: Counter<'outcome'>;
  resumeJobDuration: Histogram<'outcome'>;
  /** Resume parses stopped by the sandbox, by reason: timeout, memory, crash. */
  resumeParseStops: Counter<'reason'>;
  /** Reads the pool's numbers at every scrape. */
  observePool: (pool: () => TPoolStats | undefined) => void;
  /** Reads the key cache's counters at every scrape. */
  observeKeyCache: (stats: TKeyCacheStats) => void;
  /** Reads the content cache's counters and size at every scrape. */
  observeContentCache: (stats: TContentCacheStats) => void;
  /** Reads the expensive-read admission's counters at every scrape. */
  observeReadLimiter: (stats: TReadLimiterStats) => void;
  /** Reads where content-cache misses ran (read replica or primary) at every scrape. */
  observeReadReplica: (stats: TReplicaStats) => void;
  /** Reads the bytes of request bodies held at once, and the budget, at every scrape. */
  observeBodyBudget: (stats: TBodyBudgetStats) => void;
  /** The Prometheus text exposition of everything registered. */
  render: () => Promise<{ contentType: string; body: string }>;
};

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * The metric definitions shared by the API and the worker, in a registry of their own (not prom-client's global
 * one), so several app instances in one process — tests — do not collide. `processMetrics` adds Node's default
 * process metrics (memory, event loop lag, GC); a deployment unit turns it on once.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}): TMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'careers_' });
  const registers = [registry];

  const httpRequests = new Counter({
    name: 'careers_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpRequestDuration = new Histogram({
    name: 'careers_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const rateLimitRejections = new Counter({
    name: 'careers_rate_limit_rejections_total',
    help: 'Requests rejected with 429 by rate-limited operation',
    labelNames: ['operation'] as const,
    registers,
  });
  const resumeJobs = new Counter({
    name: 'careers_resume_jobs_total',
    help: 'Resume jobs handled by outcome',
    labelNames: ['outcome'] as const,
    registers,
  });
  const resumeJobDuration = new Histogram({
    name: 'careers_resume_job_duration_seconds',
    help: 'Resume job duration by outcome',
    labelNames: ['outcome'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });

  const resumeParseStops = new Counter({
    name: 'careers_resume_parse_stops_total',
    help: 'Resume parses stopped by the sandbox by reason (timeout, memory, crash)',
    labelNames: ['reason'] as const,
    registers,
  });

  let keyCache: TKeyCacheStats | undefined;
  // Counters read from the verifier at scrape time: it counts, the registry only reports.
  new Counter({
    name: 'careers_api_key_cache_hits_total',
    help: 'API key verifications answered from the in-process cache',
    registers,
    collect() {
      this.reset();
      if (keyCache) this.inc(keyCache.cacheHits);
    },
  });
  new Counter({
    name: 'careers_api_key_cache_misses_total',
    help: 'API key verifications that read the database',
    registers,
    collect() {
      this.reset();
      if (keyCache) this.inc(keyCache.cacheMisses);
    },
  });

  let contentCache: TContentCacheStats | undefined;
  new Counter({
    name: 'careers_content_cache_requests_total',
    help: 'Public reads by whether the content cache had a current answer (hit) or computed one (miss)',
    labelNames: ['result'],
    registers,
    collect() {
      this.reset();
      if (!contentCache) return;
      this.inc({ result: 'hit' }, contentCache.hits);
      this.inc({ result: 'miss' }, contentCache.misses);
    },
  });
  new Gauge({
    name: 'careers_content_cache_bytes',
    help: 'Estimated memory held by the content cache',
    registers,
    collect() {
      this.set(contentCache?.size.bytes ?? 0);
    },
  });

  let readReplica: TReplicaStats | undefined;
  new Counter({
    name: 'careers_content_cache_computations_total',
    help: 'Content-cache misses by the database that computed them: the read replica, or the primary (replica behind, down or unset)',
    labelNames: ['database'],
    registers,
    collect() {
      this.reset();
      if (!readReplica) return;
      this.inc({ database: 'replica' }, readReplica.onReplica);
      this.inc({ database: 'primary' }, readReplica.onPrimary);
    },
  });
  new Counter({
    name: 'careers_read_replica_failures_total',
    help: 'Computations that failed on the read replica and were run again on the primary',
    registers,
    collect() {
      this.reset();
      if (readReplica) this.inc(readReplica.failures);
    },
  });

  let readLimiter: TReadLimiterStats | undefined;
  new Counter({
    name: 'careers_expensive_reads_shed_total',
    help: 'Reads refused with 429 because their key had too many cache-missing or uncached reads in flight or waiting',
    registers,
    collect() {
      this.reset();
      if (readLimiter) this.inc(readLimiter.shed);
    },
  });
  new Gauge({
    name: 'careers_expensive_reads',
    help: 'Cache-missing and uncached reads by state (running, waiting for a turn)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      if (!readLimiter) return;
      this.set({ state: 'running' }, readLimiter.load.running);
      this.set({ state: 'waiting' }, readLimiter.load.waiting);
    },
  });

  let bodyBudget: TBodyBudgetStats | undefined;
  new Gauge({
    name: 'careers_request_body_bytes',
    help: 'Bytes of request bodies held at once (read, not yet answered), and the budget beyond which bodies are shed with 503',
    labelNames: ['state'] as const,
    registers,
    collect() {
      if (!bodyBudget) return;
      this.set({ state: 'held' }, bodyBudget.bytesInUse);
      this.set({ state: 'budget' }, bodyBudget.limit);
    },
  });

  let poolSource: (() => TPoolStats | undefined) | undefined;
  new Gauge({
    name: 'careers_db_pool_connections',
    help: 'Database pool connections by state (total = open, idle = open and unused)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = poolSource?.();
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'active' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'careers_db_pool_waiting_requests',
    help: 'Callers waiting for a database pool connection',
    registers,
    collect() {
      const pool = poolSource?.();
      if (pool) this.set(pool.waitingCount);
    },
  });
  new Gauge({
    name: 'careers_db_pool_max_connections',
    help: 'Configured size of the database pool',
    registers,
    collect() {
      const max = poolSource?.()?.options.max;
      if (max !== undefined) this.set(max);
    },
  });

  return {
    registry,
    httpRequests,
    httpRequestDuration,
    rateLimitRejections,
    resumeJobs,
    resumeJobDuration,
    resumeParseStops,
    observePool: (pool) => {
      poolSource = pool;
    },
    observeKeyCache: (stats) => {
      keyCache = stats;
    },
    observeContentCache: (stats) => {
      contentCache = stats;
    },
    observeReadLimiter: (stats) => {
      readLimiter = stats;
    },
    observeReadReplica: (stats) => {
      readReplica = stats;
    },
    observeBodyBudget: (stats) => {
      bodyBudget = stats;
    },
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}
