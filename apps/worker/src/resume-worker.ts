import { describeError, type TOrm, type Logger, type TMetrics } from '@careers/core';
import {
  processResumeJob,
  ZProcessResumePayload,
  markResumeExhausted,
  processResume,
  type TProcessResumeOptions,
  ResumeSandbox,
  type TResumeSandboxLimits,
} from '@careers/core/worker';
import type { Job, JobResult, PgBoss } from 'pg-boss';

export type TResumeWorkerOptions = {
  orm: TOrm;
  boss: PgBoss;
  log: Logger;
  /** Resume jobs run at the same time by this process. */
  concurrency: number;
  pollingIntervalSeconds?: number;
  beforeExtract?: TProcessResumeOptions['beforeExtract'];
  /** Counts jobs by outcome and times them. */
  metrics?: TMetrics;
  /** Limits of one resume parse (each runs in a process of its own); `processes` is `concurrency`. */
  parseLimits?: Partial<Omit<TResumeSandboxLimits, 'processes'>>;
};

export type TResumeWorker = {
  /** Where resumes are read: one parse process per job running at once. */
  sandbox: ResumeSandbox;
  /** Kills the parse processes; call after the queue has stopped. */
  close: () => void;
};

/**
 * Jobs fetched at a time by each of the `concurrency` consumers. With a full batch pg-boss fetches again at once
 * (`burstWhenBatchFull`), so a backlog is worked through without a polling pause after every job; the batch is
 * processed one job after the other, each settled on its own (`perJobResults`).
 */
const BATCH_SIZE = 2;

/**
 * Registers the resume consumers: `concurrency` of them on the resume queue, and one on its dead-letter queue.
 * Each resume is read in a parse process with memory and time limits (ResumeSandbox), `concurrency` at most.
 * A job that throws is failed on its own (pg-boss retries it with backoff); payloads, files and the text read
 * from them are never logged.
 */
export async function startResumeWorker(options: TResumeWorkerOptions): Promise<TResumeWorker> {
  const { orm, boss, log } = options;
  // A parse stopped at a limit fails its resume (processResume); here it is only counted, by reason.
  const sandbox = new ResumeSandbox({
    limits: { ...options.parseLimits, processes: options.concurrency },
    onStop: (reason) => options.metrics?.resumeParseStops.inc({ reason }),
  });
  const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 };
  const record = (outcome: string, started?: number) => {
    options.metrics?.resumeJobs.inc({ outcome });
    if (started !== undefined)
      options.metrics?.resumeJobDuration.observe({ outcome }, (performance.now() - started) / 1000);
  };

  const processOne = async (job: Job<unknown>): Promise<JobResult> => {
    const context = { job_id: job.id, attempt: job.retryCount + 1 };
    const payload = ZProcessResumePayload.safeParse(job.data);
    if (!payload.success) {
      // No retry makes a malformed job valid.
      log.error(context, 'resume job with an invalid payload dropped');
      record('invalid');
      return { id: job.id, status: 'completed' };
    }
    const started = performance.now();
    try {
      const outcome = await processResume(orm, payload.data, {
        log,
        signal: job.signal,
        beforeExtract: options.beforeExtract,
        parse: (bytes, kind, parseOptions) => sandbox.parse(bytes, kind, parseOptions),
      });
      log.info(
        {
          ...context,
          processing_id: payload.data.processingId,
          tenant_id: payload.data.tenantId,
          outcome: outcome.status,
          ms: Math.round(performance.now() - started),
        },
        'resume processed',
      );
      record(outcome.status, started);
      return { id: job.id, status: 'completed' };
    } catch (error) {
      const described = describeError(error);
      log.warn(
        { ...context, processing_id: payload.data.processingId, err: described },
        'resume job failed; pg-boss retries it',
      );
      // Thrown: transient (e.g. the database went away); pg-boss retries it, or dead-letters it when retries are used up.
      record('retry', started);
      return { id: job.id, status: 'failed', output: described };
    }
  };

  await boss.work(
    processResumeJob.name,
    {
      ...polling,
      localConcurrency: options.concurrency,
      batchSize: BATCH_SIZE,
      burstWhenBatchFull: true,
      perJobResults: true,
    },
    async (jobs: Job<unknown>[]) => {
      const results: JobResult[] = [];
      for (const job of jobs) results.push(await processOne(job));
      return results;
    },
  );

  await boss.work(processResumeJob.deadLetter, { ...polling, batchSize: 1 }, async (jobs: Job<unknown>[]) => {
    for (const job of jobs) {
      const payload = ZProcessResumePayload.safeParse(job.data);
      if (!payload.success) continue;
      const marked = await markResumeExhausted(orm, payload.data);
      record('exhausted');
      log.error(
        { job_id: job.id, processing_id: payload.data.processingId, marked_failed: marked },
        'resume job exhausted its retries',
      );
    }
  });

  return { sandbox, close: () => sandbox.close() };
}
