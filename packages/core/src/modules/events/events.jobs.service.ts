import { sql } from 'kysely';
import { crossTenantDb } from '../../db/kysely.ts';
import type { TOperatorContext } from '../service-context.ts';
import { allEventsAfter, eventsHorizon, pruneEventsBefore, type TEventRow } from './events.repository.ts';

/*
 * The events module's operator side (scripts/check-layers.ts OPERATOR_PATHS): the reads and jobs that serve every
 * tenant at once — the webhook dispatcher's read of all events, the worker's scheduled jobs — so they use the one
 * unscoped handle, `crossTenantDb`. Kept apart from events.service.ts so that the tenant's service cannot reach it.
 */

/** The change feed keeps at least this long (CONTRACT); older cursors answer 410. */
export const MIN_EVENT_RETENTION_DAYS = 30;

/**
 * Every tenant's events after a position. Consumers (the webhook dispatcher) keep one global cursor and loop until a
 * page is shorter than `limit`. `horizon`: one asked before (e.g. outside the reader's transaction, so the shared locks
 * of its wait are not held until that transaction ends); by default asked now.
 */
export async function readAllEventsAfter(
  ctx: TOperatorContext,
  input: { after: number; limit: number; horizon?: number | null },
): Promise<TEventRow[]> {
  const db = crossTenantDb(ctx.em);
  const known = input.horizon === undefined ? await eventsHorizon(db) : input.horizon;
  if (known === null || known <= input.after) return [];
  return allEventsAfter(db, input.after, input.limit, known);
}

/** The position below which every event is final (null while a committer takes too long). */
export async function allEventsHorizon(ctx: TOperatorContext): Promise<number | null> {
  return eventsHorizon(crossTenantDb(ctx.em));
}

/**
 * Records `*.published` / `*.unpublished` (reason `ended`) for vacancies and articles whose visibility changed
 * by time alone — `published_at`, `ends_at` or `expires_at` passing — in one transaction with the announced state
 * (exactly once per transition; see the vacancy and article events migration). Returns how many it recorded.
 */
export async function announceTimePassing(ctx: TOperatorContext): Promise<number> {
  const { rows } = await sql<{ announced: number }>`select careers_announce_time_passing() as announced`.execute(
    crossTenantDb(ctx.em),
  );
  return rows[0]?.announced ?? 0;
}

/** Deletes the events older than the retention; returns how many. */
export async function pruneExpiredEvents(ctx: TOperatorContext, input: { retentionDays: number }): Promise<number> {
  const days = Math.max(input.retentionDays, MIN_EVENT_RETENTION_DAYS);
  return pruneEventsBefore(crossTenantDb(ctx.em), new Date(Date.now() - days * 24 * 3600 * 1000));
}
