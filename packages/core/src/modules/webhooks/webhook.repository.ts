import { sql } from 'kysely';
import { serialRow, type TDb } from '../../db/kysely.ts';
import type { TDeliveryRow, TEndpointRow } from './webhook.dto.ts';

const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'event_types',
  'disabled_at',
  'disabled_reason',
  'previous_secret_expires_at',
  'created_at',
] as const;
const DELIVERY_COLUMNS = [
  'id',
  'endpoint_id',
  'event_id',
  'event_type',
  'state',
  'attempts',
  'last_status_code',
  'last_error',
  'last_attempt_at',
  'next_attempt_at',
  'delivered_at',
  'created_at',
] as const;

export type TEndpointSecrets = TEndpointRow & {
  tenant_id: number;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
};

/*
 * A tenant's endpoints and deliveries. Every function takes the tenant-scoped handle (`tenantKysely`, `ctx.db`): the
 * scope plugin adds the tenant to every statement, so none of them names a tenant. The worker's queries, which serve
 * every tenant, are in webhook-delivery.repository.ts.
 */

/** Locks the tenant's row for this transaction (endpoints of one tenant are created one at a time) and counts its endpoints. */
export async function lockAndCountEndpoints(db: TDb): Promise<number | undefined> {
  const tenant = await db.selectFrom('tenants').select('id').forUpdate().executeTakeFirst();
  if (!tenant) return undefined;
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertEndpoint(
  db: TDb,
  row: { url: string; eventTypes: string[]; secretEncrypted: string },
): Promise<TEndpointRow> {
  const inserted = await db
    .insertInto('webhook_endpoints')
    .values(
      serialRow<'webhook_endpoints'>({
        url: row.url,
        event_types: row.eventTypes,
        secret_encrypted: row.secretEncrypted,
      } as never),
    )
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
  return inserted as unknown as TEndpointRow;
}

export async function selectEndpoints(db: TDb): Promise<TEndpointRow[]> {
  const rows = await db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).orderBy('id', 'desc').execute();
  return rows as unknown as TEndpointRow[];
}

export async function selectEndpointSecrets(db: TDb, id: number): Promise<TEndpointSecrets | undefined> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select([...ENDPOINT_COLUMNS, 'tenant_id', 'secret_encrypted', 'previous_secret_encrypted'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row as unknown as TEndpointSecrets | undefined;
}

/**
 * Deletes an endpoint and, by the foreign key's cascade, its deliveries. Call it in a transaction: the deliveries are
 * locked first, in the order a recorded attempt locks them (delivery, then endpoint), so a deletion waits for an
 * attempt being recorded instead of deadlocking with it.
 */
export async function deleteEndpointRow(db: TDb, id: number): Promise<TEndpointRow | undefined> {
  await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', id)
    .orderBy('id')
    .forUpdate()
    .execute();
  const query = db.deleteFrom('webhook_endpoints').where('id', '=', id);
  return (await query.returning(ENDPOINT_COLUMNS).executeTakeFirst()) as unknown as TEndpointRow | undefined;
}

export async function updateSecrets(
  db: TDb,
  id: number,
  secrets: { secretEncrypted: string; previousSecretEncrypted: string | null; previousSecretExpiresAt: Date | null },
): Promise<TEndpointRow> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      secret_encrypted: secrets.secretEncrypted,
      previous_secret_encrypted: secrets.previousSecretEncrypted,
      previous_secret_expires_at: secrets.previousSecretExpiresAt,
    })
    .where('id', '=', id)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
  return row as unknown as TEndpointRow;
}

/** Turns deliveries back on for an endpoint disabled earlier (e.g. after a 410); its pending deliveries resume. */
export async function enableEndpointRow(db: TDb, id: number): Promise<TEndpointRow | undefined> {
  const query = db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: null, disabled_reason: null })
    .where('id', '=', id);
  return (await query.returning(ENDPOINT_COLUMNS).executeTakeFirst()) as unknown as TEndpointRow | undefined;
}

export type TNewDelivery = {
  tenantId: number;
  endpointId: number;
  eventId: string;
  eventType: string;
  payload: string;
};

/** A delivery's new row: due now. */
export function deliveryRow(d: TNewDelivery) {
  return serialRow<'webhook_deliveries'>({
    tenant_id: d.tenantId,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    payload: d.payload,
    next_attempt_at: sql<Date>`now()`,
  } as never);
}

/** One delivery of a new event id (nothing to conflict with), as recorded: a runner may deliver it the next moment. */
export async function insertDelivery(db: TDb, delivery: TNewDelivery): Promise<TDeliveryRow> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values(deliveryRow(delivery))
    .returning(DELIVERY_COLUMNS)
    .executeTakeFirstOrThrow();
  return row as unknown as TDeliveryRow;
}

export async function selectDeliveries(db: TDb, endpointId: number, limit: number): Promise<TDeliveryRow[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('endpoint_id', '=', endpointId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows as unknown as TDeliveryRow[];
}

export async function selectDelivery(db: TDb, id: number): Promise<TDeliveryRow | undefined> {
  const query = db.selectFrom('webhook_deliveries').select(DELIVERY_COLUMNS).where('id', '=', id);
  return (await query.executeTakeFirst()) as unknown as TDeliveryRow | undefined;
}

/** Makes a delivery due again now (same event id and body); its attempt count goes on. */
export async function requeueDelivery(db: TDb, id: number): Promise<TDeliveryRow | undefined> {
  const query = db
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', next_attempt_at: sql<Date>`now()`, delivered_at: null })
    .where('id', '=', id);
  return (await query.returning(DELIVERY_COLUMNS).executeTakeFirst()) as unknown as TDeliveryRow | undefined;
}
