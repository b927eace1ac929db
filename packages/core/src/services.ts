import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiKeyVerifier } from './modules/api-keys/api-key.verifier.ts';
import { ViewCounter } from './lib/view-counter.ts';
import type { Logger } from './lib/logger.ts';
import { JobSender } from './jobs/sender.ts';

/** Process-wide collaborators shared by every request: the ORM, the key cache, batched counters. */
export type TCoreServices = {
  orm: MikroORM;
  log: Logger;
  keys: ApiKeyVerifier;
  views: ViewCounter;
  /** Enqueues background jobs (send-only pg-boss, started on first use). */
  jobs: JobSender;
  /** Writes what is batched in memory (views, key last use); runs every second and on shutdown. */
  flush: () => Promise<void>;
  close: () => Promise<void>;
};

export function createCoreServices(orm: MikroORM, log: Logger, options: { flushIntervalMs?: number } = {}): TCoreServices {
  const keys = new ApiKeyVerifier(orm);
  const views = new ViewCounter(orm);
  const jobs = new JobSender(orm.config.get('clientUrl') ?? '', (error) => log.error({ err: error }, 'job queue error'));
  const flush = async () => {
    await Promise.all([views.flush(), keys.flushLastUsed()]);
  };
  let flushing: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (flushing) return;
    flushing = flush()
      .catch((error: unknown) => log.warn({ err: error }, 'batched write failed; will retry'))
      .finally(() => (flushing = undefined));
  }, options.flushIntervalMs ?? 500);
  timer.unref();
  return {
    orm,
    log,
    keys,
    views,
    jobs,
    flush,
    close: async () => {
      clearInterval(timer);
      await flushing;
      await flush();
      await jobs.close();
    },
  };
}
