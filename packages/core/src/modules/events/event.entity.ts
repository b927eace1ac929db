import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

export const EVENT_OBJECTS = ['vacancy', 'article', 'application', 'candidate', 'resume'] as const;
export type TEventObject = (typeof EVENT_OBJECTS)[number];

/**
 * The event outbox: one row per event, written in the transaction of the change that caused it (by code through
 * `recordEvent`, by the content triggers for vacancies and articles). `position` is the commit order: it is
 * null while the writing transaction is open and set at its commit (see the events migration), so readers page by
 * `position` and never skip an entry that committed after entries they have already read.
 */
export const EventSchema = defineEntity({
  name: 'Event',
  tableName: 'events',
  indexes: [
    // Positioned events only (Migration20261128113000): an open transaction's own are found by their writer.
    {
      name: 'events_tenant_position_idx',
      expression:
        'create index "events_tenant_position_idx" on "events" ("tenant_id", "position") where "position" is not null',
    },
    {
      name: 'events_position_idx',
      expression: 'create index "events_position_idx" on "events" ("position") where "position" is not null',
    },
    { name: 'events_occurred_at_idx', properties: ['occurredAt'] },
  ],
  properties: {
    /** Insertion order (orders a transaction's own events when they are given positions at commit). */
    seq: p.bigint('number').primary(),
    /** `evt_` + 32 hex digits; the `webhook-id` of its deliveries. */
    id: p
      .string()
      .length(40)
      .unique()
      .defaultRaw(`('evt_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text))`),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    type: p.string().length(100),
    object: p.enum(EVENT_OBJECTS),
    /** The object's id as text (resumes have uuids; the others integers). */
    objectId: p.string().length(100),
    slug: p.string().length(255).nullable(),
    data: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime().defaultRaw('now()'),
    /** Commit order across all tenants; set when the writing transaction commits. */
    position: p.bigint('number').nullable(),
  },
});
export class Event extends EventSchema.class {}
EventSchema.setClass(Event);

/**
 * What a consumer has announced about an object's visibility (vacancies and articles): the state that turns
 * "visible now" into `*.published` / `*.unpublished` exactly once, shared by the content triggers and the
 * scheduled visibility job.
 */
export const AnnouncedVisibilitySchema = defineEntity({
  name: 'AnnouncedVisibility',
  tableName: 'announced_visibilities',
  properties: {
    object: p.enum(['vacancy', 'article'] as const).primary(),
    objectId: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    visible: p.boolean(),
  },
});
export class AnnouncedVisibility extends AnnouncedVisibilitySchema.class {}
AnnouncedVisibilitySchema.setClass(AnnouncedVisibility);

/**
 * Per tenant, the highest position pruned so far: a change-feed cursor of that tenant below it may have missed
 * entries (410). Per tenant, so a quiet tenant's cursor does not expire because other tenants' events were pruned.
 */
export const EventRetentionSchema = defineEntity({
  name: 'EventRetention',
  tableName: 'event_retention',
  properties: {
    tenant: () => p.manyToOne(Tenant).primary().deleteRule('cascade'),
    prunedThrough: p.bigint('number'),
  },
});
export class EventRetention extends EventRetentionSchema.class {}
EventRetentionSchema.setClass(EventRetention);
