import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kyselyOf, serialRow, type TDb } from '../../db/kysely.ts';
import type { TDeliveryRow, TEndpointRow } from './webhook.dto.ts';

const ENDPOINT_COLUMNS = ['id', 'url', 'event_types', 'disabled_at', 'disabled_reason', 'previous_secret_expires_at', 'created_at'] as const;
const DELIVERY_COLUMNS = [
  'id', 'endpoint_id', 'event_id', 'event_type', 'state', 'attempts', 'last_status_code', 'last_error', 'last_attempt_at', 'next_attempt_at', 'delivered_at', 'created_at',
] as const;

export type TEndpointSecrets = TEndpointRow & {
  tenant_id: number;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
};

/** One tenant's (or, with `tenantId` null, any tenant's: the operator's CLI) endpoints. */
function endpoints(db: TDb, tenantId: number | null) {
  const query = db.selectFrom('webhook_endpoints');
  return tenantId === null ? query : query.where('tenant_id', '=', tenantId);
}

export async function insertEndpoint(em: EntityManager, row: { tenantId: number; url: string; eventTypes: string[]; secretEncrypted: string }): Promise<TEndpointRow> {
  const inserted = await kyselyOf(em)
    .insertInto('webhook_endpoints')
    .values(serialRow<'webhook_endpoints'>({ tenant_id: row.tenantId, url: row.url, event_types: row.eventTypes, secret_encrypted: row.secretEncrypted } as never))
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
  return inserted as unknown as TEndpointRow;
}

export async function selectEndpoints(em: EntityManager, tenantId: number): Promise<TEndpointRow[]> {
  const rows = await endpoints(kyselyOf(em), tenantId).select(ENDPOINT_COLUMNS).orderBy('id', 'desc').execute();
  return rows as unknown as TEndpointRow[];
}

export async function selectEndpointSecrets(em: EntityManager, tenantId: number | null, id: number): Promise<TEndpointSecrets | undefined> {
  const row = await endpoints(kyselyOf(em), tenantId)
    .select([...ENDPOINT_COLUMNS, 'tenant_id', 'secret_encrypted', 'previous_secret_encrypted'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row as unknown as TEndpointSecrets | undefined;
}

export async function deleteEndpointRow(em: EntityManager, tenantId: number | null, id: number): Promise<TEndpointRow | undefined> {
  let query = kyselyOf(em).deleteFrom('webhook_endpoints').where('id', '=', id);
  if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
  return (await query.returning(ENDPOINT_COLUMNS).executeTakeFirst()) as unknown as TEndpointRow | undefined;
}

export async function updateSecrets(
  em: EntityManager,
  id: number,
  secrets: { secretEncrypted: string; previousSecretEncrypted: string | null; previousSecretExpiresAt: Date | null },
): Promise<TEndpointRow> {
  const row = await kyselyOf(em)
    .updateTable('webhook_endpoints')
    .set({ secret_encrypted: secrets.secretEncrypted, previous_secret_encrypted: secrets.previousSecretEncrypted, previous_secret_expires_at: secrets.previousSecretExpiresAt })
    .where('id', '=', id)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
  return row as unknown as TEndpointRow;
}

export async function disableEndpoint(em: EntityManager, id: number, reason: string): Promise<void> {
  await kyselyOf(em).updateTable('webhook_endpoints').set({ disabled_at: new Date(), disabled_reason: reason }).where('id', '=', id).where('disabled_at', 'is', null).execute();
}

/** Turns deliveries back on for an endpoint disabled earlier (e.g. after a 410); its pending deliveries resume. */
export async function enableEndpointRow(em: EntityManager, tenantId: number | null, id: number): Promise<TEndpointRow | undefined> {
  let query = kyselyOf(em).updateTable('webhook_endpoints').set({ disabled_at: null, disabled_reason: null }).where('id', '=', id);
  if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
  return (await query.returning(ENDPOINT_COLUMNS).executeTakeFirst()) as unknown as TEndpointRow | undefined;
}

export type TNewDelivery = { tenantId: number; endpointId: number; eventId: string; eventType: string; payload: string };

/** Creates deliveries that are due now; one per (endpoint, event): a second insert of the same pair is ignored. */
/** A delivery's new row: due now. */
function deliveryRow(d: TNewDelivery) {
  return serialRow<'webhook_deliveries'>({
    tenant_id: d.tenantId,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    payload: d.payload,
    next_attempt_at: sql<Date>`now()`,
  } as never);
}

export async function insertDeliveries(em: EntityManager, deliveries: readonly TNewDelivery[]): Promise<number> {
  if (deliveries.length === 0) return 0;
  const result = await kyselyOf(em)
    .insertInto('webhook_deliveries')
    .values(deliveries.map(deliveryRow))
    .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** One delivery of a new event id (nothing to conflict with), as recorded: a runner may deliver it the next moment. */
export async function insertDelivery(em: EntityManager, delivery: TNewDelivery): Promise<TDeliveryRow> {
  const row = await kyselyOf(em).insertInto('webhook_deliveries').values(deliveryRow(delivery)).returning(DELIVERY_COLUMNS).executeTakeFirstOrThrow();
  return row as unknown as TDeliveryRow;
}

export async function selectDeliveries(em: EntityManager, tenantId: number, endpointId: number, limit: number): Promise<TDeliveryRow[]> {
  const rows = await kyselyOf(em)
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('endpoint_id', '=', endpointId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows as unknown as TDeliveryRow[];
}

export async function selectDelivery(em: EntityManager, tenantId: number | null, id: number): Promise<TDeliveryRow | undefined> {
  let query = kyselyOf(em).selectFrom('webhook_deliveries').select(DELIVERY_COLUMNS).where('id', '=', id);
  if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
  return (await query.executeTakeFirst()) as unknown as TDeliveryRow | undefined;
}

/** Makes a delivery due again now (same event id and body); its attempt count goes on. */
export async function requeueDelivery(em: EntityManager, tenantId: number | null, id: number): Promise<TDeliveryRow | undefined> {
  let query = kyselyOf(em)
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', next_attempt_at: sql<Date>`now()`, delivered_at: null })
    .where('id', '=', id);
  if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
  return (await query.returning(DELIVERY_COLUMNS).executeTakeFirst()) as unknown as TDeliveryRow | undefined;
}

export type TClaimedDelivery = {
  id: number;
  endpoint_id: number;
  event_id: string;
  payload: string;
  attempts: number;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
};

/**
 * Claims up to `limit` due deliveries of enabled endpoints: counts the attempt and leases the row by moving its
 * next attempt `leaseSeconds` ahead. A worker that dies mid-delivery (SIGKILL) leaves the lease to run out, and
 * the delivery becomes due again: at least once, with the same event id. SKIP LOCKED lets workers share the table.
 */
export async function claimDueDeliveries(em: EntityManager, limit: number, leaseSeconds: number): Promise<TClaimedDelivery[]> {
  const result = await sql<TClaimedDelivery>`
    with due as (
      select d.id from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id and e.disabled_at is null
      where d.state = 'pending' and d.next_attempt_at <= now()
      order by d.next_attempt_at
      limit ${limit}
      for update of d skip locked
    ), claimed as (
      update webhook_deliveries d
      set attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
      from due where d.id = due.id
      returning d.id, d.endpoint_id, d.event_id, d.payload, d.attempts
    )
    select c.*, e.url, e.secret_encrypted, e.previous_secret_encrypted, e.previous_secret_expires_at
    from claimed c join webhook_endpoints e on e.id = c.endpoint_id`.execute(kyselyOf(em));
  return result.rows;
}

export type TAttemptOutcome =
  | { state: 'delivered'; statusCode: number; response: string }
  | { state: 'pending'; statusCode: number | null; error: string; response: string | null; nextAttemptAt: Date }
  | { state: 'failed'; statusCode: number | null; error: string; response: string | null };

/**
 * Records the outcome of one attempt, unless the delivery has been claimed again since (its lease ran out):
 * then the later attempt's outcome counts.
 */
export async function recordAttempt(em: EntityManager, delivery: { id: number; attempts: number }, outcome: TAttemptOutcome): Promise<boolean> {
  const base = { state: outcome.state, last_status_code: outcome.statusCode };
  const set =
    outcome.state === 'delivered'
      ? { ...base, last_error: null, last_response: outcome.response, delivered_at: new Date(), next_attempt_at: null }
      : outcome.state === 'pending'
        ? { ...base, last_error: outcome.error, last_response: outcome.response, next_attempt_at: outcome.nextAttemptAt }
        : { ...base, last_error: outcome.error, last_response: outcome.response, next_attempt_at: null };
  const result = await kyselyOf(em)
    .updateTable('webhook_deliveries')
    .set(set)
    .where('id', '=', delivery.id)
    .where('attempts', '=', delivery.attempts)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The enabled endpoints of these tenants, with the event types each wants. */
export async function selectEnabledEndpoints(em: EntityManager, tenantIds: readonly number[]): Promise<{ id: number; tenant_id: number; event_types: string[] }[]> {
  if (tenantIds.length === 0) return [];
  const rows = await kyselyOf(em)
    .selectFrom('webhook_endpoints')
    .select(['id', 'tenant_id', 'event_types'])
    .where('tenant_id', 'in', [...tenantIds])
    .where('disabled_at', 'is', null)
    .execute();
  return rows as unknown as { id: number; tenant_id: number; event_types: string[] }[];
}

/** The dispatcher's position in the event stream, locked for this transaction (one dispatcher at a time). */
export async function lockDispatchCursor(em: EntityManager, name: string): Promise<number> {
  const db = kyselyOf(em);
  await db.insertInto('webhook_dispatch_cursors').values({ name, position: 0 } as never).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('webhook_dispatch_cursors').select('position').where('name', '=', name).forUpdate().executeTakeFirstOrThrow();
  return Number(row.position);
}

export async function saveDispatchCursor(em: EntityManager, name: string, position: number): Promise<void> {
  await kyselyOf(em).updateTable('webhook_dispatch_cursors').set({ position, updated_at: new Date() }).where('name', '=', name).execute();
}

/** Deletes finished deliveries (delivered or failed) created before `before`, a batch at a time. */
export async function pruneFinishedDeliveries(em: EntityManager, before: Date, batchSize = 5000): Promise<number> {
  const result = await sql`delete from webhook_deliveries where id in (
      select id from webhook_deliveries where state <> 'pending' and created_at < ${before} limit ${batchSize})`.execute(kyselyOf(em));
  return Number(result.numAffectedRows ?? 0);
}
