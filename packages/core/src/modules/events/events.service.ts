/**
 * The event outbox (CONTRACT "Events, webhooks and the change feed").
 *
 * Writing: `recordEvent(db, …)` inside the transaction of the change (pass the transaction's tenant-scoped Kysely,
 * `tenantKysely(tx, tenantId)`); vacancy and article events are written by database triggers, whoever changes the rows.
 *
 * Ordering: every event gets a `position` when its transaction commits, in commit order (see the events
 * sequencing migration). A reader keeps the last position it has handled and asks for `position > last`; it never
 * skips an entry that committed late, because a later position is never visible before an earlier one.
 *
 * Consumers (the webhook dispatcher): keep one global cursor (a position, e.g. in a one-row table updated in
 * the same transaction as the deliveries created from a page) and loop `readAllEventsAfter(db, cursor, limit)`
 * until it returns fewer than `limit` rows; `toEventPayload(row)` is the event's webhook body. Per tenant,
 * `readEventsAfter(db, tenantId, cursor, {objects, limit})`. Events are pruned after the retention (≥ 30 days).
 */
import type { TDb } from '../../db/kysely.ts';
import type { TEventObject } from './event.entity.ts';
import { allEventsAfter, insertEvent, tenantEventsAfter, type TEventRow, type TNewEvent } from './events.repository.ts';

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
  return tenantEventsAfter(db, tenantId, after, {
    objects: options.objects ?? ['vacancy', 'article', 'application', 'candidate', 'resume'],
    limit: options.limit,
  });
}

export async function readAllEventsAfter(db: TDb, after: number, limit: number): Promise<TEventRow[]> {
  return allEventsAfter(db, after, limit);
}
