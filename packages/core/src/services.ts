import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiKeyVerifier } from './modules/api-keys/api-key.verifier.ts';
import { ViewCounter } from './modules/content/view-counter.ts';
import { ContentCache } from './modules/content/content-cache.ts';
import { ReadLimiter, type TReadLimits } from './modules/content/read-limiter.ts';
import type { Logger } from './lib/logger.ts';
import { JobSender } from './jobs/sender.ts';
import { createMetrics, type TMetrics } from './lib/metrics.ts';
import { poolOf } from './db/orm.ts';
import { ReadReplica } from './db/read-replica.ts';

/** Process-wide collaborators shared by every request: the ORM, the key cache, batched counters. */
export type TCoreServices = {
  orm: MikroORM;
  log: Logger;
  keys: ApiKeyVerifier;
  views: ViewCounter;
  /** Answers computed from tenants' public content, exact across processes (see ContentCache). */
  content: ContentCache;
  /** The read replica that content-cache misses run on when it is current enough (DATABASE_READ_URL), if any. */
  replica: ReadReplica | undefined;
  /** Turns for the reads that cost real database work (cache misses, uncached lists), per key and process. */
  reads: ReadLimiter;
  /** Enqueues background jobs (send-only pg-boss, started on first use). */
  jobs: JobSender;
  /** This process's metrics (served at /metrics). */
  metrics: TMetrics;
  /** Writes what is batched in memory (views, key last use); runs every second and on shutdown. */
  flush: () => Promise<void>;
  /** Marks a request as being handled; call the returned function when its handler has finished. */
  beginRequest: () => () => void;
  /** Waits for the requests being handled (at most `timeoutMs`), flushes and closes the job sender. */
  close: (timeoutMs?: number) => Promise<void>;
};

export function createCoreServices(
  orm: MikroORM,
  log: Logger,
  options: {
    flushIntervalMs?: number;
    metrics?: TMetrics;
    contentCacheBytes?: number;
    readLimits?: Partial<TReadLimits>;
    readReplicaUrl?: string;
  } = {},
): TCoreServices {
  const keys = new ApiKeyVerifier(orm);
  const views = new ViewCounter(orm);
  const jobs = new JobSender(orm.config.get('clientUrl') ?? '', (error) =>
    log.error({ err: error }, 'job queue error'),
  );
  const metrics = options.metrics ?? createMetrics();
  metrics.observeKeyCache(keys);
  const reads = new ReadLimiter(options.readLimits);
  const replica = options.readReplicaUrl ? new ReadReplica(options.readReplicaUrl, orm) : undefined;
  const content = new ContentCache({ maxBytes: options.contentCacheBytes, reads, replica });
  metrics.observeContentCache(content);
  metrics.observeReadLimiter(reads);
  if (replica) metrics.observeReadReplica(replica.stats);
  void poolOf(orm).then((pool) => metrics.observePool(() => pool));

  // Each batch keeps what it could not write (both flushes put their entries back), so an outage loses nothing.
  const flush = async () => {
    const results = await Promise.allSettled([views.flush(), keys.flushLastUsed()]);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  };
  let flushing: Promise<void> | undefined;
  let failing = false;
  const timer = setInterval(() => {
    if (flushing) return;
    flushing = flush()
      .then(() => {
        if (failing) log.info('batched writes resumed');
        failing = false;
      })
      .catch((error: unknown) => {
        // Once per outage, not every interval.
        if (!failing) log.warn({ err: error }, 'batched write failed; will retry');
        failing = true;
      })
      .finally(() => (flushing = undefined));
  }, options.flushIntervalMs ?? 500);
  timer.unref();

  // Handlers still running when shutdown starts (their clients may have gone) must finish before the pool closes.
  let inFlight = 0;
  let onIdle: (() => void) | undefined;
  const beginRequest = () => {
    inFlight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      inFlight--;
      if (inFlight === 0) onIdle?.();
    };
  };
  const idle = (timeoutMs: number) =>
    inFlight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          onIdle = resolve;
          setTimeout(resolve, timeoutMs).unref();
        });

  return {
    orm,
    log,
    keys,
    views,
    content,
    replica,
    reads,
    jobs,
    metrics,
    flush,
    beginRequest,
    close: async (timeoutMs = 10_000) => {
      await idle(timeoutMs);
      clearInterval(timer);
      await flushing;
      // A database that is down at shutdown loses the last batch; it must not stop the shutdown itself.
      await flush().catch((error: unknown) => log.error({ err: error }, 'batched write failed at shutdown'));
      await jobs.close();
      await replica?.close();
    },
  };
}
