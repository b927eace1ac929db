import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { clientAddressGroup } from './client-address.ts';
import { kyselyOf } from '../../db/kysely.ts';
import { preparedSql } from '../../db/prepared-statements.ts';

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
 * Operations a publishable key's writes are also limited on per client address (CONTRACT "Career sites in the
 * browser"): a career site's key is public, so one visitor must not spend the whole site's budget.
 */
export const ADDRESS_RATE_LIMITS: Partial<Record<TRateLimitedOperation, { limit: number; windowSeconds: number }>> = {
  'applications.create': { limit: 10, windowSeconds: 60 },
  'candidates.create': { limit: 10, windowSeconds: 60 },
};

function keyBucket(apiKeyId: number, operation: TRateLimitedOperation): string {
  return `${apiKeyId}:${operation}`;
}

/** Stored hashed, like the sign-in buckets: the rate-limit table holds no client addresses. */
function addressBucket(apiKeyId: number, operation: TRateLimitedOperation, clientAddress: string): string {
  const group = createHash('sha256').update(clientAddressGroup(clientAddress), 'utf8').digest('hex');
  return `${apiKeyId}:${operation}:address:${group}`;
}

type TBucket = { bucket: string; limit: number; windowSeconds: number };

/** The buckets one request counts against: the key's, and for a publishable key's write also its address's. */
function bucketsOf(apiKeyId: number, operation: TRateLimitedOperation, clientAddress: string | undefined): TBucket[] {
  const buckets: TBucket[] = [{ bucket: keyBucket(apiKeyId, operation), ...RATE_LIMITS[operation] }];
  const perAddress = ADDRESS_RATE_LIMITS[operation];
  if (clientAddress !== undefined && perAddress) buckets.push({ bucket: addressBucket(apiKeyId, operation, clientAddress), ...perAddress });
  return buckets;
}

type TWindowRow = { bucket: string; hits: number; reset_at: number; now: number };

/** One state from several windows: the tighter one (fewest remaining; when over, the one that frees last). */
function tighter(buckets: TBucket[], rows: TWindowRow[]): TRateLimitState {
  const states = buckets.flatMap(({ bucket, limit, windowSeconds }) => {
    const row = rows.find((candidate) => candidate.bucket === bucket);
    if (!row) return [];
    const hits = Number(row.hits);
    return [
      {
        limit,
        remaining: Math.max(0, limit - hits),
        resetAt: Math.ceil(row.reset_at),
        retryAfter: Math.min(windowSeconds, Math.max(1, Math.ceil(row.reset_at - row.now))),
        exceeded: hits > limit,
      },
    ];
  });
  const over = states.filter((state) => state.exceeded);
  const pool = over.length > 0 ? over : states;
  if (pool.length === 0) throw new Error('rate limit upsert returned no row');
  return pool.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetAt > a.resetAt) ? b : a));
}

/**
 * Counts one hit in a window (`source` yields the new row, or none; `$seconds` stands for the parameter of the window's
 * length). One clock reading per statement (statement_timestamp), so "window over?" is decided once and the window
 * start and the hit count never disagree.
 */
function upsertWindow(source: string, seconds: string): string {
  return `insert into rate_limit_windows as w (bucket, window_start, hits) ${source}
     on conflict (bucket) do update set
       window_start = case when w.window_start <= statement_timestamp() - make_interval(secs => ${seconds}::int) then statement_timestamp() else w.window_start end,
       hits = case when w.window_start <= statement_timestamp() - make_interval(secs => ${seconds}::int) then 1 else w.hits + 1 end
     returning w.bucket, w.hits, extract(epoch from w.window_start)::float8 + ${seconds}::int as reset_at, extract(epoch from statement_timestamp())::float8 as now`;
}

/** The key's window: $1 bucket, $2 window seconds. Prepared (fixed text, on every rate-limited request). */
const KEY_WINDOW_SQL = preparedSql(upsertWindow('values ($1, statement_timestamp(), 1)', '$2'));

/** The address's window ($1 bucket, $2 seconds), then the key's ($3 bucket, $4 seconds) while the address has $5 hits left. */
const ADDRESS_THEN_KEY_WINDOW_SQL = preparedSql(
  `with address as (${upsertWindow('values ($1, statement_timestamp(), 1)', '$2')}),
     key as (${upsertWindow('select $3, statement_timestamp(), 1 where (select hits from address) <= $5', '$4')})
   select bucket, hits, reset_at, now from address union all select bucket, hits, reset_at, now from key`,
);

async function countWindows(em: EntityManager, text: string, parameters: unknown[]): Promise<TWindowRow[]> {
  return (await kyselyOf(em).executeQuery<TWindowRow>(CompiledQuery.raw(text, parameters))).rows;
}

/**
 * Counts one hit in a window of its own name (not an API key's operation: e.g. `webhook-sends:<endpoint id>`, the test
 * events and replays of one webhook endpoint), like the keys' windows: atomically, shared by every process.
 */
export async function hitNamedWindow(em: EntityManager, bucket: string, window: { limit: number; windowSeconds: number }): Promise<TRateLimitState> {
  await sweepExpiredWindowsNowAndThen(em);
  return tighter([{ bucket, ...window }], await countWindows(em, KEY_WINDOW_SQL, [bucket, window.windowSeconds]));
}

/** The `X-RateLimit-*` headers (and on a 429 `Retry-After`) that describe a window's state. */
export function rateLimitHeaders(state: TRateLimitState): Record<string, string> {
  const headers: Record<string, string> = { 'X-RateLimit-Limit': String(state.limit), 'X-RateLimit-Remaining': String(state.remaining) };
  if (state.exceeded) Object.assign(headers, { 'Retry-After': String(state.retryAfter), 'X-RateLimit-Reset': String(state.resetAt) });
  return headers;
}

export type TRateLimitOptions = {
  /** A publishable key's client address (express req.ip): its writes count per address as well. */
  clientAddress?: string;
};

/**
 * Counts one request in the key's current window (and, with `clientAddress`, first in the window of that address and
 * key), atomically in PostgreSQL (one statement), so the limits hold across any number of API processes. A window
 * starts with its first request. The answer is the tighter of the windows.
 */
export async function hitRateLimit(
  em: EntityManager,
  apiKeyId: number,
  operation: TRateLimitedOperation,
  options: TRateLimitOptions = {},
): Promise<TRateLimitState> {
  const buckets = bucketsOf(apiKeyId, operation, options.clientAddress);
  await sweepExpiredWindowsNowAndThen(em);
  const [key, address] = buckets as [TBucket, TBucket | undefined];
  if (!address) return tighter(buckets, await countWindows(em, KEY_WINDOW_SQL, [key.bucket, key.windowSeconds]));
  // The address first, and the key only when the address is within its budget: one visitor hammering a career
  // site's key spends its own budget, not the whole site's. Always address then key, so no two requests deadlock.
  const rows = await countWindows(em, ADDRESS_THEN_KEY_WINDOW_SQL, [address.bucket, address.windowSeconds, key.bucket, key.windowSeconds, address.limit]);
  return tighter(buckets, rows);
}

/**
 * The state of the windows a request would count against, without counting it (GET /me): a window that has not
 * started or is over has its whole budget, resetting one window length from now.
 */
export async function readRateLimit(
  em: EntityManager,
  apiKeyId: number,
  operation: TRateLimitedOperation,
  options: TRateLimitOptions = {},
): Promise<Omit<TRateLimitState, 'exceeded' | 'retryAfter'>> {
  const buckets = bucketsOf(apiKeyId, operation, options.clientAddress);
  const found = await em.execute<{ bucket: string; hits: number; start: number; now: number }[]>(
    `select bucket, hits, extract(epoch from window_start)::float8 as start, extract(epoch from statement_timestamp())::float8 as now
     from rate_limit_windows where bucket in (${buckets.map(() => '?').join(', ')})`,
    buckets.map(({ bucket }) => bucket),
  );
  const now = found[0]?.now ?? Date.now() / 1000;
  const rows: TWindowRow[] = buckets.map(({ bucket, windowSeconds }) => {
    const row = found.find((candidate) => candidate.bucket === bucket);
    const running = row !== undefined && Number(row.start) + windowSeconds > now;
    return running
      ? { bucket, hits: Number(row.hits), reset_at: Number(row.start) + windowSeconds, now }
      : { bucket, hits: 0, reset_at: now + windowSeconds, now };
  });
  const { limit, remaining, resetAt } = tighter(buckets, rows);
  return { limit, remaining, resetAt };
}
