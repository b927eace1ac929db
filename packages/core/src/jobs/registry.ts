import type { TJobDefinition } from './define-job.ts';
import { processResumeJob } from './process-resume.job.ts';
import { announceVisibilityJob, pruneEventsJob, sweepRetentionJob } from './events.jobs.ts';

/** Every job of the product (their queues are created by `careers migrate` and at worker start). */
export const jobDefinitions: readonly TJobDefinition<any>[] = [
  processResumeJob,
  announceVisibilityJob,
  pruneEventsJob,
  sweepRetentionJob,
];
