import type { EntityManager } from '@mikro-orm/postgresql';
import { toEventPayload } from '../events/event.dto.ts';
import { allEventsHorizon, readAllEventsAfter } from '../events/events.jobs.service.ts';
import {
  insertDeliveries,
  lockDispatchCursor,
  saveDispatchCursor,
  selectEnabledEndpoints,
} from './webhook-delivery.repository.ts';
import type { TNewDelivery } from './webhook.repository.ts';
import { endpointWants } from './webhook.service.ts';

const CURSOR = 'webhooks';
/** Rows per INSERT (6 parameters each, far below PostgreSQL's 65 535). */
const INSERT_CHUNK = 1000;

/**
 * Turns the next page of committed events (in commit order) into one delivery per matching enabled endpoint,
 * and moves the stored cursor past them, all in one transaction: a crash before commit leaves the cursor where it
 * was and the page is dispatched again (the unique (endpoint, event) pair makes that harmless). The cursor row
 * is locked, so concurrent workers take turns. Returns the number of events read. An operator path: it serves every
 * tenant (`crossTenantDb`, through the events module's operator side).
 */
export async function dispatchEvents(em: EntityManager, limit = 500): Promise<{ events: number; deliveries: number }> {
  // Asked before the transaction: the wait's shared locks end with its own statement, not with the dispatch.
  const horizon = await allEventsHorizon({ em });
  return em.transactional(async (tx) => {
    const after = await lockDispatchCursor(tx, CURSOR);
    const events = await readAllEventsAfter({ em: tx }, { after, limit, horizon });
    const last = events.at(-1);
    if (!last) return { events: 0, deliveries: 0 };
    const endpoints = await selectEnabledEndpoints(tx, [...new Set(events.map((event) => event.tenant_id))]);
    const deliveries: TNewDelivery[] = [];
    for (const event of events) {
      let payload: string | undefined;
      for (const endpoint of endpoints) {
        if (endpoint.tenant_id !== event.tenant_id || !endpointWants(endpoint.event_types, event.type)) continue;
        payload ??= JSON.stringify(toEventPayload(event));
        deliveries.push({
          tenantId: event.tenant_id,
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          payload,
        });
      }
    }
    let created = 0;
    for (let i = 0; i < deliveries.length; i += INSERT_CHUNK)
      created += await insertDeliveries(tx, deliveries.slice(i, i + INSERT_CHUNK));
    await saveDispatchCursor(tx, CURSOR, last.position);
    return { events: events.length, deliveries: created };
  });
}
