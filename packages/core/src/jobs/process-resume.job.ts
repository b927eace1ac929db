import { z } from 'zod';
import { defineJob } from './define-job.ts';

export const ZProcessResumePayload = z.object({
  processingId: z.uuid(),
  tenantId: z.number().int().positive(),
});
export type TProcessResumePayload = z.infer<typeof ZProcessResumePayload>;

/** Turns one uploaded resume (a resume_processings row) into a candidate. */
export const processResumeJob = defineJob({
  name: 'resume.process',
  payload: ZProcessResumePayload,
  queue: {
    // Reading even a 10 MB resume takes seconds; a job active for 5 minutes is stuck.
    expireInSeconds: 300,
    heartbeatSeconds: 30,
    // Transient failures (database unavailable) retry after ~5 s, 10 s, 20 s … capped at 5 minutes.
    retryLimit: 6,
    retryDelay: 5,
    retryDelayMax: 300,
  },
});
