import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, sql } from 'kysely';
import { crossTenantDb } from '../../db/kysely.ts';
import { preparedSql } from '../../db/fast-path/index.ts';

/*
 * An operator path (scripts/check-layers.ts): the windows are counted per API key and client address, in a table that
 * belongs to no tenant and is shared by every process, so the statements use `crossTenantDb`.
 */

/** A counted window. `window_id`: the window's start in microseconds (text), naming the window a place was taken in. */
export type TWindowRow = { bucket: string; hits: number; reset_at: number; now: number; window_id: string };

/**
 * Deletes up to `limit` windows that started more than `retentionSeconds` ago; returns how many it deleted. Rows being
 * counted right now are skipped, never waited for.
 */
export async function deleteWindowsOlderThan(
  em: EntityManager,
  retentionSeconds: number,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ bucket: string }>`
    delete from rate_limit_windows where bucket in (
      select bucket from rate_limit_windows where window_start < statement_timestamp() - make_interval(secs => ${retentionSeconds})
      limit ${limit} for update skip locked)
    returning bucket`.execute(crossTenantDb(em));
  return rows.length;
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

/** One window: $1 bucket, $2 window seconds. Prepared (fixed text, on every rate-limited request). */
const WINDOW_SQL = preparedSql(upsertWindow('values ($1, statement_timestamp(), 1)', '$2'));

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

async function run(em: EntityManager, text: string, parameters: unknown[]): Promise<TWindowRow[]> {
  return (await crossTenantDb(em).executeQuery<TWindowRow>(CompiledQuery.raw(text, parameters))).rows;
}

/** Counts one hit in `bucket`'s window (a window starts with its first hit), atomically. */
export function countHit(em: EntityManager, bucket: string, windowSeconds: number): Promise<TWindowRow[]> {
  return run(em, WINDOW_SQL, [bucket, windowSeconds]);
}

/**
 * Counts one hit in the address's window and, only while the address is within `addressLimit`, in the key's: one
 * statement, always address then key, so no two requests deadlock.
 */
export function countHitAddressThenKey(
  em: EntityManager,
  address: { bucket: string; windowSeconds: number; limit: number },
  key: { bucket: string; windowSeconds: number },
): Promise<TWindowRow[]> {
  return run(em, ADDRESS_THEN_KEY_WINDOW_SQL, [
    address.bucket,
    address.windowSeconds,
    key.bucket,
    key.windowSeconds,
    address.limit,
  ]);
}

/** Gives one hit back to the window `windowId` of `bucket` (not to a window that started since). */
export async function giveHitBack(em: EntityManager, bucket: string, windowId: string): Promise<void> {
  await run(em, GIVE_BACK_SQL, [bucket, windowId]);
}

/** The stored windows of `buckets` (started at `start`, Unix seconds), with the database's clock. */
export async function findWindows(
  em: EntityManager,
  buckets: string[],
): Promise<Array<{ bucket: string; hits: number; start: number; now: number }>> {
  const { rows } = await sql<{ bucket: string; hits: number; start: number; now: number }>`
    select bucket, hits, extract(epoch from window_start)::float8 as start, extract(epoch from statement_timestamp())::float8 as now
    from rate_limit_windows where bucket in (${sql.join(buckets)})`.execute(crossTenantDb(em));
  return rows;
}
