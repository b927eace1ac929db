import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

/**
 * A URL a tenant receives signed events at. Secrets are stored encrypted (AES-256-GCM, key from
 * WEBHOOK_SECRET_KEY) so that a database dump alone does not reveal them; after a rotation the previous secret
 * keeps signing beside the new one until `previousSecretExpiresAt`.
 */
export const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    url: p.string().length(2048),
    /** Event types delivered to this endpoint; `*` means every type. */
    eventTypes: p.array().default([]),
    secretEncrypted: p.text(),
    previousSecretEncrypted: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    /** Set when deliveries stopped (e.g. the receiver answered 410 Gone); null while enabled. */
    disabledAt: p.datetime().nullable(),
    disabledReason: p.string().length(255).nullable(),
    /** Failed attempts since the last delivered one: a failing endpoint gets few delivery slots (webhook-delivery.repository.ts). */
    consecutiveFailures: p.integer().default(0),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);

/**
 * One event to one endpoint: the delivery log and the work queue at once. `payload` is the exact body that is
 * signed, so every retry and replay sends the same bytes with the same `webhook-id` (the event id).
 * state: pending (due at `nextAttemptAt`), delivered, failed (retries used up, or the endpoint is gone).
 */
export const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  uniques: [{ properties: ['endpoint', 'eventId'] }],
  indexes: [
    // The worker's "what is due" scan.
    {
      name: 'webhook_deliveries_due_idx',
      expression: `create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where "state" = 'pending'`,
    },
    { properties: ['endpoint', 'createdAt'] },
    // The fair claim's "what is due for this endpoint" probe.
    {
      name: 'webhook_deliveries_endpoint_due_idx',
      expression: `create index "webhook_deliveries_endpoint_due_idx" on "webhook_deliveries" ("endpoint_id", "next_attempt_at", "id") where "state" = 'pending'`,
    },
    // Deliveries being attempted right now (slots held), per endpoint.
    {
      name: 'webhook_deliveries_leased_idx',
      expression: `create index "webhook_deliveries_leased_idx" on "webhook_deliveries" ("endpoint_id") where "leased_until" is not null`,
    },
  ],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule('cascade'),
    eventId: p.string().length(64),
    eventType: p.string().length(64),
    payload: p.text(),
    state: p.string().length(16).default('pending'),
    attempts: p.integer().default(0),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    /** The start of the last response body (bounded), for the log. */
    lastResponse: p.text().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    nextAttemptAt: p.datetime().nullable(),
    /** While a worker attempts it (a delivery slot held): the end of its lease; null once the outcome is recorded. */
    leasedUntil: p.datetime().nullable(),
    deliveredAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);

/** Where the dispatcher is in the global event stream (one row per reader name). */
export const WebhookDispatchCursorSchema = defineEntity({
  name: 'WebhookDispatchCursor',
  tableName: 'webhook_dispatch_cursors',
  properties: {
    name: p.string().length(64).primary(),
    /** The last event position (commit order) turned into deliveries. */
    position: p.bigint('number').default(0),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class WebhookDispatchCursor extends WebhookDispatchCursorSchema.class {}
WebhookDispatchCursorSchema.setClass(WebhookDispatchCursor);
