import type { Job, PgBoss } from 'pg-boss';
import type { TOrm, Logger } from '@careers/core';
import {
  announceVisibilityJob,
  pruneEventsJob,
  sweepRetentionJob,
  announceTimePassing,
  pruneExpiredEvents,
  sweepRetention,
} from '@careers/core/worker';

export type TEventScheduleOptions = {
  orm: TOrm;
  boss: PgBoss;
  log: Logger;
  /** How often time-driven visibility changes are looked for (published_at / ends_at passing: within this + a poll). */
  announceEverySeconds: number;
  retentionDays: number;
  /** How often the privacy retention sweep runs (at least daily; CONTRACT "Retention"). */
  sweepEverySeconds: number;
  pollingIntervalSeconds?: number;
};

/**
 * The scheduled jobs: every worker sends the visibility job each `announceEverySeconds`, the event pruning job
 * daily and the privacy retention sweep each `sweepEverySeconds`; pg-boss keeps one job per time slot (`singletonSeconds`), so several workers do the work once.
 */
export async function startEventSchedule(options: TEventScheduleOptions): Promise<{ stop: () => void }> {
  const { orm, boss, log } = options;
  const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1, batchSize: 1 };
  await boss.work(announceVisibilityJob.name, polling, async (_jobs: Job<unknown>[]) => {
    const announced = await announceTimePassing({ em: orm.em.fork() });
    if (announced > 0) log.info({ announced }, 'time-driven visibility changes recorded');
  });
  await boss.work(pruneEventsJob.name, polling, async (_jobs: Job<unknown>[]) => {
    const pruned = await pruneExpiredEvents({ em: orm.em.fork() }, { retentionDays: options.retentionDays });
    log.info({ pruned, retention_days: options.retentionDays }, 'old events pruned');
  });
  await boss.work(sweepRetentionJob.name, polling, async (_jobs: Job<unknown>[]) => {
    const swept = await sweepRetention({ em: orm.em.fork() });
    if (swept.erased_candidates + swept.erased_applications > 0)
      log.info(swept, 'retention sweep erased personal data');
  });
  const send = async (name: string, singletonSeconds: number) => {
    try {
      await boss.send(name, {}, { singletonSeconds });
    } catch (error) {
      log.warn({ err: { message: (error as Error).message }, job: name }, 'could not schedule an event job');
    }
  };
  const tick = () => {
    void send(announceVisibilityJob.name, options.announceEverySeconds);
    void send(pruneEventsJob.name, 24 * 3600);
    void send(sweepRetentionJob.name, options.sweepEverySeconds);
  };
  tick();
  const timer = setInterval(tick, options.announceEverySeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
