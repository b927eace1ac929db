import type { EntityManager } from '@mikro-orm/postgresql';

/** Limits per API key and operation (SPEC.md "Limits"): requests per fixed 60-second window. */
export const RATE_LIMITS = {
  'applications.create': { limit: 10, windowSeconds: 60 },
  'candidates.create': { limit: 10, windowSeconds: 60 },
  'vacancies.canonicalUrl': { limit: 60, windowSeconds: 60 },
} as const;
export type TRateLimitedOperation = keyof typeof RATE_LIMITS;

export type TRateLimitState = {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window ends. */
  resetAt: number;
  /** Seconds until the window ends, 1..windowSeconds. */
  retryAfter: number;
  exceeded: boolean;
};

/** Longer than any window (API limits: 60 s; admin sign-in: 15 min): older rows only hold counts no one reads. */
export const RATE_LIMIT_RETENTION_SECONDS = 60 * 60;
/** Rows deleted by one sweep, so a sweep is one short statement even after a spray of sign-in attempts. */
const SWEEP_BATCH = 1_000;
/** How often a process sweeps, at most (on the next counted request after this much time). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Deletes up to `limit` windows that ended long ago (buckets of keys and addresses that stopped coming, e.g. a spray
 * of sign-in attempts); returns how many it deleted. Rows being counted right now are skipped, never waited for.
 */
export async function sweepExpiredWindows(em: EntityManager, limit = SWEEP_BATCH): Promise<number> {
  const rows = await em.execute<{ bucket: string }[]>(
    `delete from rate_limit_windows where bucket in (
       select bucket from rate_limit_windows where window_start < statement_timestamp() - make_interval(secs => ?)
       limit ? for update skip locked)
     returning bucket`,
    [RATE_LIMIT_RETENTION_SECONDS, limit],
  );
  return rows.length;
}

let lastSweepAt = 0;

/** Sweeps (one bounded batch) when this process has not swept for a minute; called where windows are counted. */
export async function sweepExpiredWindowsNowAndThen(em: EntityManager, now = Date.now()): Promise<void> {
  if (now - lastSweepAt < SWEEP_INTERVAL_MS) return;
  lastSweepAt = now;
  await sweepExpiredWindows(em);
}

/** Tests: the next counted request sweeps. */
export function sweepOnNextCount(): void {
  lastSweepAt = 0;
}

/**
 * Counts one request in the key's current window, atomically in PostgreSQL (one upsert), so the
 * limit holds across any number of API processes. The window starts with its first request.
 */
export async function hitRateLimit(em: EntityManager, apiKeyId: number, operation: TRateLimitedOperation): Promise<TRateLimitState> {
  const { limit, windowSeconds } = RATE_LIMITS[operation];
  await sweepExpiredWindowsNowAndThen(em);
  // One clock reading per statement (statement_timestamp), so "window over?" is decided once and the
  // window start and the hit count can never disagree.
  const rows = await em.execute<{ hits: number; reset_at: number; now: number }[]>(
    `insert into rate_limit_windows as w (bucket, window_start, hits) values (?, statement_timestamp(), 1)
     on conflict (bucket) do update set
       window_start = case when w.window_start <= statement_timestamp() - make_interval(secs => ?) then statement_timestamp() else w.window_start end,
       hits = case when w.window_start <= statement_timestamp() - make_interval(secs => ?) then 1 else w.hits + 1 end
     returning w.hits, extract(epoch from w.window_start)::float8 + ? as reset_at, extract(epoch from statement_timestamp())::float8 as now`,
    [`${apiKeyId}:${operation}`, windowSeconds, windowSeconds, windowSeconds],
  );
  const row = rows[0];
  if (!row) throw new Error('rate limit upsert returned no row');
  const hits = Number(row.hits);
  const retryAfter = Math.min(windowSeconds, Math.max(1, Math.ceil(row.reset_at - row.now)));
  return {
    limit,
    remaining: Math.max(0, limit - hits),
    resetAt: Math.ceil(row.reset_at),
    retryAfter,
    exceeded: hits > limit,
  };
}
