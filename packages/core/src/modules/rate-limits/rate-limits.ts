import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { clientAddressGroup } from './client-address.ts';
import { crossTenantDb } from '../../db/kysely.ts';
import { preparedSql } from '../../db/prepared-statements.ts';

/*
 * An operator path (scripts/check-layers.ts): the windows are counted per API key and client address, in a table that
 * belongs to no tenant and is shared by every process, so the queries use `crossTenantDb`.
 */

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
  const { rows } = await sql<{ bucket: string }>`
    delete from rate_limit_windows where bucket in (
      select bucket from rate_limit_windows where window_start < statement_timestamp() - make_interval(secs => ${RATE_LIMIT_RETENTION_SECONDS})
      limit ${limit} for update skip locked)
    returning bucket`.execute(crossTenantDb(em));
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

type TWindow = { limit: number; windowSeconds: number };

/**
 * How a publishable key's writes are limited (CONTRACT "Guarding the shared service"). A career site's key is public,
 * so every request counts per client address (one visitor spends its own budget), and the key's own window counts
 * only what was stored: a request takes a place in it at the limit check and gives it back unless it stores (a 4xx,
 * a dry run, a replay), so one visitor's refused requests cannot use up the site's budget. Operations not listed
 * here count like a secret key's (RATE_LIMITS).
 */
export const PUBLISHABLE_RATE_LIMITS: Partial<Record<TRateLimitedOperation, { perAddress: TWindow; perKey: TWindow }>> = {
  'applications.create': { perAddress: { limit: 5, windowSeconds: 60 }, perKey: { limit: 120, windowSeconds: 60 } },
};

function keyBucket(apiKeyId: number, operation: TRateLimitedOperation): string {
  return `${apiKeyId}:${operation}`;
}

/** Stored hashed, like the sign-in buckets: the rate-limit table holds no client addresses. */
export function addressBucket(apiKeyId: number, operation: TRateLimitedOperation, clientAddress: string): string {
  const group = createHash('sha256').update(clientAddressGroup(clientAddress), 'utf8').digest('hex');
  return `${apiKeyId}:${operation}:address:${group}`;
}

type TBucket = TWindow & { bucket: string };

/**
 * The buckets one request counts against: the key's; for a publishable key's write with per-address limits, its
 * address's first, then the key's (`stored`: counting only requests that store).
 */
function bucketsOf(apiKeyId: number, operation: TRateLimitedOperation, options: TRateLimitOptions): { key: TBucket & { storedOnly: boolean }; address?: TBucket } {
  const publishable = options.kind === 'publishable' ? PUBLISHABLE_RATE_LIMITS[operation] : undefined;
  if (!publishable) return { key: { bucket: keyBucket(apiKeyId, operation), ...RATE_LIMITS[operation], storedOnly: false } };
  const key = { bucket: keyBucket(apiKeyId, operation), ...publishable.perKey, storedOnly: true };
  if (options.clientAddress === undefined) return { key };
  return { key, address: { bucket: addressBucket(apiKeyId, operation, options.clientAddress), ...publishable.perAddress } };
}

/** `window_id`: the window's start in microseconds (text), naming the window a place was taken in. */
type TWindowRow = { bucket: string; hits: number; reset_at: number; now: number; window_id: string };

/**
 * One state from several windows: the one nearer to exhaustion (fewest remaining; when over, the one that frees last),
 * so the headers describe the window that will refuse first.
 */
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
     returning w.bucket, w.hits, extract(epoch from w.window_start)::float8 + ${seconds}::int as reset_at, extract(epoch from statement_timestamp())::float8 as now,
       ${WINDOW_ID} as window_id`;
}

/** A window's start in whole microseconds, as text: compared exactly when a place is given back. */
const WINDOW_ID = `(extract(epoch from w.window_start) * 1000000)::bigint::text`;

/** The key's window: $1 bucket, $2 window seconds. Prepared (fixed text, on every rate-limited request). */
const KEY_WINDOW_SQL = preparedSql(upsertWindow('values ($1, statement_timestamp(), 1)', '$2'));

/** The address's window ($1 bucket, $2 seconds), then the key's ($3 bucket, $4 seconds) while the address has $5 hits left. */
const ADDRESS_THEN_KEY_WINDOW_SQL = preparedSql(
  `with address as (${upsertWindow('values ($1, statement_timestamp(), 1)', '$2')}),
     key as (${upsertWindow('select $3, statement_timestamp(), 1 where (select hits from address) <= $5', '$4')})
   select bucket, hits, reset_at, now, window_id from address union all select bucket, hits, reset_at, now, window_id from key`,
);

/** Gives one place back to the window it was taken in ($1 bucket, $2 window id); a window that started again is left alone. */
const GIVE_BACK_SQL = preparedSql(
  `update rate_limit_windows as w set hits = w.hits - 1 where w.bucket = $1 and ${WINDOW_ID} = $2 and w.hits > 0`,
);

async function countWindows(em: EntityManager, text: string, parameters: unknown[]): Promise<TWindowRow[]> {
  return (await crossTenantDb(em).executeQuery<TWindowRow>(CompiledQuery.raw(text, parameters))).rows;
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
  /** The key's kind (default secret): a publishable key's writes count per address, and per key only when stored. */
  kind?: 'secret' | 'publishable';
  /** A publishable key's client address (express req.ip). */
  clientAddress?: string;
};

/** A counted request: the state of its windows, and (publishable keys' writes) the place it holds in the key's window. */
export type TRateLimitHit = TRateLimitState & {
  /**
   * Gives the request's place in the key-wide window back: call it when the request did not store (4xx, dry run,
   * replay, failure). Absent when the request holds no such place (secret keys, or refused before the key's window).
   */
  giveBack?: () => Promise<void>;
};

/**
 * Counts one request in the key's current window (and, for a publishable key's write, first in the window of its
 * client address), atomically in PostgreSQL (one statement), so the limits hold across any number of API processes.
 * A window starts with its first request. The answer is the tighter of the windows.
 */
export async function hitRateLimit(
  em: EntityManager,
  apiKeyId: number,
  operation: TRateLimitedOperation,
  options: TRateLimitOptions = {},
): Promise<TRateLimitHit> {
  const { key, address } = bucketsOf(apiKeyId, operation, options);
  await sweepExpiredWindowsNowAndThen(em);
  const rows = address
    ? // The address first, and the key only when the address is within its budget: one visitor hammering a career
      // site's key spends its own budget, not the whole site's. Always address then key, so no two requests deadlock.
      await countWindows(em, ADDRESS_THEN_KEY_WINDOW_SQL, [address.bucket, address.windowSeconds, key.bucket, key.windowSeconds, address.limit])
    : await countWindows(em, KEY_WINDOW_SQL, [key.bucket, key.windowSeconds]);
  const state = tighter(address ? [address, key] : [key], rows);
  const keyRow = rows.find((row) => row.bucket === key.bucket);
  if (!key.storedOnly || !keyRow) return state;
  let given = false;
  const giveBack = async () => {
    if (given) return;
    given = true;
    await countWindows(em, GIVE_BACK_SQL, [key.bucket, keyRow.window_id]);
  };
  return { ...state, giveBack };
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
  const { key, address } = bucketsOf(apiKeyId, operation, options);
  const buckets = address ? [address, key] : [key];
  const { rows: found } = await sql<{ bucket: string; hits: number; start: number; now: number }>`
    select bucket, hits, extract(epoch from window_start)::float8 as start, extract(epoch from statement_timestamp())::float8 as now
    from rate_limit_windows where bucket in (${sql.join(buckets.map(({ bucket }) => bucket))})`.execute(crossTenantDb(em));
  const now = found[0]?.now ?? Date.now() / 1000;
  const rows: TWindowRow[] = buckets.map(({ bucket, windowSeconds }) => {
    const row = found.find((candidate) => candidate.bucket === bucket);
    const running = row !== undefined && Number(row.start) + windowSeconds > now;
    return running
      ? { bucket, hits: Number(row.hits), reset_at: Number(row.start) + windowSeconds, now, window_id: '' }
      : { bucket, hits: 0, reset_at: now + windowSeconds, now, window_id: '' };
  });
  const { limit, remaining, resetAt } = tighter(buckets, rows);
  return { limit, remaining, resetAt };
}
