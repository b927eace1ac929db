import { z } from 'zod';
import { defineJob } from './define-job.ts';

const ZNoPayload = z.object({});

/**
 * Records the vacancy and article visibility changes made by time alone (published_at, ends_at, expires_at
 * passing). Sent by every worker every few seconds, at most one job per slot (see apps/worker events-schedule).
 */
export const announceVisibilityJob = defineJob({
  name: 'events.announce-visibility',
  payload: ZNoPayload,
  // The next slot's job does the same work: no retries needed beyond a quick one.
  queue: { expireInSeconds: 60, heartbeatSeconds: null, retryLimit: 1, retryDelay: 5, retryDelayMax: 5 },
});

/** Deletes events older than the retention (daily). */
export const pruneEventsJob = defineJob({
  name: 'events.prune',
  payload: ZNoPayload,
  queue: { expireInSeconds: 900, heartbeatSeconds: null, retryLimit: 3, retryDelay: 60, retryDelayMax: 600 },
});

/** The retention sweep (CONTRACT "Retention"): erases what the tenants' retention periods have passed (hourly). */
export const sweepRetentionJob = defineJob({
  name: 'privacy.sweep',
  payload: ZNoPayload,
  queue: { expireInSeconds: 3600, heartbeatSeconds: null, retryLimit: 3, retryDelay: 60, retryDelayMax: 600 },
});
