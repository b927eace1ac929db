import type { EntityManager } from '@mikro-orm/postgresql';
import type { TOperatorContext } from '../service-context.ts';
import {
  PUBLISHABLE_RATE_LIMITS,
  RATE_LIMITS,
  addressBucket,
  keyBucket,
  type TRateLimitedOperation,
  type TWindow,
} from './rate-limit-buckets.ts';
import {
  countHit,
  countHitAddressThenKey,
  deleteWindowsOlderThan,
  findWindows,
  giveHitBack,
  type TWindowRow,
} from './rate-limit.repository.ts';

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
 * of sign-in attempts); returns how many it deleted.
 */
export function sweepExpiredWindows(em: EntityManager, limit = SWEEP_BATCH): Promise<number> {
  return deleteWindowsOlderThan(em, RATE_LIMIT_RETENTION_SECONDS, limit);
}

let lastSweepAt = 0;

/** Sweeps (one bounded batch) when this process has not swept for a minute; called where windows are counted. */
export async function sweepExpiredWindowsNowAndThen(ctx: TOperatorContext): Promise<void> {
  const now = Date.now();
  if (now - lastSweepAt < SWEEP_INTERVAL_MS) return;
  lastSweepAt = now;
  await sweepExpiredWindows(ctx.em);
}

/** Tests: the next counted request sweeps. */
export function sweepOnNextCount(): void {
  lastSweepAt = 0;
}

type TBucket = TWindow & { bucket: string };

/** One request's place in the limits: the key, the operation it counts as, and how (TRateLimitOptions). */
export type TRateLimitRequest = TRateLimitOptions & { apiKeyId: number; operation: TRateLimitedOperation };

export type TRateLimitOptions = {
  /** The key's kind (default secret): a publishable key's writes count per address, and per key only when stored. */
  kind?: 'secret' | 'publishable';
  /** A publishable key's client address (express req.ip). */
  clientAddress?: string;
};

/**
 * The buckets one request counts against: the key's; for a publishable key's write with per-address limits, its
 * address's first, then the key's (`storedOnly`: counting only requests that store).
 */
function bucketsOf(
  apiKeyId: number,
  operation: TRateLimitedOperation,
  options: TRateLimitOptions,
): { key: TBucket & { storedOnly: boolean }; address?: TBucket } {
  const publishable = options.kind === 'publishable' ? PUBLISHABLE_RATE_LIMITS[operation] : undefined;
  if (!publishable)
    return { key: { bucket: keyBucket(apiKeyId, operation), ...RATE_LIMITS[operation], storedOnly: false } };
  const key = { bucket: keyBucket(apiKeyId, operation), ...publishable.perKey, storedOnly: true };
  if (options.clientAddress === undefined) return { key };
  return {
    key,
    address: { bucket: addressBucket(apiKeyId, operation, options.clientAddress), ...publishable.perAddress },
  };
}

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
  return pool.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.resetAt > a.resetAt) ? b : a,
  );
}

/**
 * Counts one hit in a window of its own name (not an API key's operation: e.g. `webhook-sends:<endpoint id>`, the test
 * events and replays of one webhook endpoint), like the keys' windows: atomically, shared by every process.
 */
export async function hitNamedWindow(
  ctx: TOperatorContext,
  { bucket, window }: { bucket: string; window: TWindow },
): Promise<TRateLimitState> {
  await sweepExpiredWindowsNowAndThen(ctx);
  return tighter([{ bucket, ...window }], await countHit(ctx.em, bucket, window.windowSeconds));
}

/** The `X-RateLimit-*` headers (and on a 429 `Retry-After`) that describe a window's state. */
export function rateLimitHeaders(state: TRateLimitState): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
  };
  if (state.exceeded)
    Object.assign(headers, { 'Retry-After': String(state.retryAfter), 'X-RateLimit-Reset': String(state.resetAt) });
  return headers;
}

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
export async function hitRateLimit(ctx: TOperatorContext, request: TRateLimitRequest): Promise<TRateLimitHit> {
  const { em } = ctx;
  const { key, address } = bucketsOf(request.apiKeyId, request.operation, request);
  await sweepExpiredWindowsNowAndThen(ctx);
  // The address first, and the key only when the address is within its budget: one visitor hammering a career
  // site's key spends its own budget, not the whole site's.
  const rows = address
    ? await countHitAddressThenKey(em, address, key)
    : await countHit(em, key.bucket, key.windowSeconds);
  const state = tighter(address ? [address, key] : [key], rows);
  const keyRow = rows.find((row) => row.bucket === key.bucket);
  if (!key.storedOnly || !keyRow) return state;
  let given = false;
  const giveBack = async () => {
    if (given) return;
    given = true;
    await giveHitBack(em, key.bucket, keyRow.window_id);
  };
  return { ...state, giveBack };
}

/**
 * The state of the windows a request would count against, without counting it (GET /me): a window that has not
 * started or is over has its whole budget, resetting one window length from now.
 */
export async function readRateLimit(
  ctx: TOperatorContext,
  request: TRateLimitRequest,
): Promise<Omit<TRateLimitState, 'exceeded' | 'retryAfter'>> {
  const { key, address } = bucketsOf(request.apiKeyId, request.operation, request);
  const buckets = address ? [address, key] : [key];
  const found = await findWindows(
    ctx.em,
    buckets.map(({ bucket }) => bucket),
  );
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
