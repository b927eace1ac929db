/**
 * The event outbox (CONTRACT "Events, webhooks and the change feed").
 *
 * Writing: `recordEvent(db, …)` inside the transaction of the change (pass the transaction's tenant-scoped Kysely,
 * `tenantKysely(tx, tenantId)`); vacancy and article events are written by database triggers, whoever changes the rows.
 *
 * Ordering: every event gets a `position` when its transaction commits (see the events sequencing migrations);
 * concurrent committers do not wait for each other. A reader keeps the last position it has handled and asks for
 * `position > last` up to the horizon (`eventsHorizon`), below which every entry is final: it never skips an entry
 * that committed late, because nothing is read above a position that may still become visible.
 *
 * Consumers (the webhook dispatcher): keep one global cursor (a position, e.g. in a one-row table updated in
 * the same transaction as the deliveries created from a page) and loop `readAllEventsAfter(db, cursor, limit)`
 * until it returns fewer than `limit` rows; `toEventPayload(row)` is the event's webhook body. Per tenant,
 * `readEventsAfter(db, tenantId, cursor, {objects, limit})`. Events are pruned after the retention (≥ 30 days).
 */
import type { TDb } from '../../db/kysely.ts';
import type { TEventObject } from './event.entity.ts';
import { AppError } from '../../lib/errors.ts';
import { allEventsAfter, eventsHorizon, insertEvent, latestPrunedPosition, tenantEventsAfter, type TEventRow, type TNewEvent } from './events.repository.ts';

/** Records an event in the caller's transaction; `data` always carries the object's `id` (and `slug` if given). */
export async function recordEvent(db: TDb, event: TNewEvent): Promise<{ id: string }> {
  const data = { id: event.objectId, ...(event.slug === undefined ? {} : { slug: event.slug }), ...event.data };
  return insertEvent(db, { ...event, data });
}

export async function readEventsAfter(
  db: TDb,
  tenantId: number,
  after: number,
  options: { objects?: readonly TEventObject[]; limit: number },
): Promise<TEventRow[]> {
  const horizon = await eventsHorizon(db);
  if (horizon === null || horizon <= after) return [];
  return tenantEventsAfter(db, tenantId, after, {
    objects: options.objects ?? ['vacancy', 'article', 'application', 'candidate', 'resume'],
    limit: options.limit,
    horizon,
  });
}

/**
 * Every tenant's events after a position. `horizon`: one asked before (e.g. outside the reader's transaction, so the
 * shared locks of its wait are not held until that transaction ends); by default asked now.
 */
export async function readAllEventsAfter(db: TDb, after: number, limit: number, horizon?: number | null): Promise<TEventRow[]> {
  const known = horizon === undefined ? await eventsHorizon(db) : horizon;
  if (known === null || known <= after) return [];
  return allEventsAfter(db, after, limit, known);
}

/** A position every later entry comes after (a cursor for "from now on"); 503 while a committer takes too long. */
export async function currentEventsPosition(db: TDb): Promise<number> {
  const horizon = await eventsHorizon(db);
  if (horizon === null) throw new AppError('SERVICE_UNAVAILABLE');
  return Math.max(horizon, await latestPrunedPosition(db));
}

export { eventsHorizon };
