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

/** Locks the tenant's row for this transaction (endpoints of one tenant are created one at a time) and counts its endpoints. */
export async function lockAndCountEndpoints(em: EntityManager, tenantId: number): Promise<number | undefined> {
  const db = kyselyOf(em);
  const tenant = await db.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().executeTakeFirst();
  if (!tenant) return undefined;
  const row = await endpoints(db, tenantId).select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
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
  tenant_id: number;
  endpoint_id: number;
  event_id: string;
  payload: string;
  attempts: number;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
};

export type TClaimShares = {
  /** Deliveries to claim at most (the claiming worker's free slots). */
  limit: number;
  leaseSeconds: number;
  /** Slots one tenant may hold in the claiming worker (half of them). */
  tenantSlots: number;
  /** Slots the claiming worker's deliveries in flight hold now, per tenant. */
  heldByTenant: ReadonlyMap<number, number>;
  /** Slots an endpoint whose last attempt failed may hold at once, across every worker. */
  failingEndpointSlots: number;
};

/**
 * Claims up to `limit` due deliveries of enabled endpoints, fairly: counts the attempt and leases the row by moving
 * its next attempt `leaseSeconds` ahead (and marking it held until then, `leased_until`). A worker that dies
 * mid-delivery (SIGKILL) leaves the lease to run out, and the delivery becomes due again: at least once, with the
 * same event id.
 *
 * Fair shares: an endpoint whose last attempt failed (e.g. one that keeps timing out) holds at most
 * `failingEndpointSlots` across all workers; a tenant holds at most `tenantSlots` of the claiming worker's; and the
 * claim takes tenants in turn (each tenant's first due delivery before any tenant's second, and within a tenant its
 * endpoints in turn), so one tenant's backlog never queues another tenant's events behind it. The due deliveries
 * are probed per endpoint (index on endpoint, next attempt), at most what the endpoint may still take. Claims are
 * taken one at a time (a transaction-scoped advisory lock, held for this one statement), so the counts of slots
 * held that they read are exact with any number of workers; SKIP LOCKED passes over rows being replayed.
 */
export async function claimDueDeliveries(em: EntityManager, shares: TClaimShares): Promise<TClaimedDelivery[]> {
  if (shares.limit <= 0) return [];
  const tenantIds = [...shares.heldByTenant.keys()];
  const held = tenantIds.map((id) => shares.heldByTenant.get(id) ?? 0);
  return em.transactional(async (tx) => {
    const db = kyselyOf(tx);
    await sql`select pg_advisory_xact_lock(hashtextextended('careers.webhooks.claim', 0))`.execute(db);
    const result = await sql<TClaimedDelivery>`
      with busy as (
        select endpoint_id, count(*)::int as held from webhook_deliveries
        where leased_until is not null and leased_until > now()
        group by endpoint_id
      ), mine as (
        select * from unnest(${tenantIds}::int[], ${held}::int[]) as m(tenant_id, held)
      ), candidates as (
        select c.id, e.tenant_id, e.id as endpoint_id, c.next_attempt_at,
          row_number() over (partition by e.id order by c.next_attempt_at, c.id) as endpoint_turn
        from webhook_endpoints e
        left join busy b on b.endpoint_id = e.id
        left join mine m on m.tenant_id = e.tenant_id
        cross join lateral (
          select d.id, d.next_attempt_at from webhook_deliveries d
          where d.endpoint_id = e.id and d.state = 'pending' and d.next_attempt_at <= now()
          order by d.next_attempt_at, d.id
          limit greatest(0, least(
            ${shares.limit}::int,
            ${shares.tenantSlots}::int - coalesce(m.held, 0),
            case when e.consecutive_failures > 0 then ${shares.failingEndpointSlots}::int - coalesce(b.held, 0) else ${shares.limit}::int end))
        ) c
        where e.disabled_at is null
      ), turns as (
        select c.*, row_number() over (partition by c.tenant_id order by c.endpoint_turn, c.next_attempt_at, c.id) as tenant_turn
        from candidates c
      ), chosen as (
        select t.id from turns t left join mine m on m.tenant_id = t.tenant_id
        where t.tenant_turn <= ${shares.tenantSlots}::int - coalesce(m.held, 0)
        order by t.tenant_turn, t.next_attempt_at, t.id
        limit ${shares.limit}::int
      ), locked as (
        select d.id from webhook_deliveries d
        where d.id in (select id from chosen) and d.state = 'pending' and d.next_attempt_at <= now()
        for update of d skip locked
      ), claimed as (
        update webhook_deliveries d
        set attempts = d.attempts + 1, last_attempt_at = now(),
          next_attempt_at = now() + make_interval(secs => ${shares.leaseSeconds}), leased_until = now() + make_interval(secs => ${shares.leaseSeconds})
        from locked where d.id = locked.id
        returning d.id, d.tenant_id, d.endpoint_id, d.event_id, d.payload, d.attempts
      )
      select c.*, e.url, e.secret_encrypted, e.previous_secret_encrypted, e.previous_secret_expires_at
      from claimed c join webhook_endpoints e on e.id = c.endpoint_id`.execute(db);
    return result.rows;
  });
}

export type TAttemptOutcome =
  | { state: 'delivered'; statusCode: number; response: string }
  | { state: 'pending'; statusCode: number | null; error: string; response: string | null; nextAttemptAt: Date }
  | { state: 'failed'; statusCode: number | null; error: string; response: string | null };

/**
 * Records the outcome of one attempt, unless the delivery has been claimed again since (its lease ran out):
 * then the later attempt's outcome counts. The slot is free again, and the endpoint's run of failures goes on or
 * ends (written only when it changes: a healthy endpoint's deliveries do not all update its row).
 */
export async function recordAttempt(em: EntityManager, delivery: { id: number; attempts: number }, outcome: TAttemptOutcome): Promise<boolean> {
  const delivered = outcome.state === 'delivered';
  const error = outcome.state === 'delivered' ? null : outcome.error;
  const nextAttemptAt = outcome.state === 'pending' ? outcome.nextAttemptAt : null;
  const result = await sql<{ endpoint_id: number }>`
    with recorded as (
      update webhook_deliveries
      set state = ${outcome.state}, last_status_code = ${outcome.statusCode}, last_error = ${error}, last_response = ${outcome.response},
        next_attempt_at = ${nextAttemptAt}, leased_until = null, delivered_at = ${delivered ? sql`now()` : sql`delivered_at`}
      where id = ${delivery.id} and attempts = ${delivery.attempts} and state = 'pending'
      returning endpoint_id
    ), counted as (
      update webhook_endpoints e
      set consecutive_failures = ${delivered ? sql`0` : sql`e.consecutive_failures + 1`}
      from recorded r where e.id = r.endpoint_id ${delivered ? sql`and e.consecutive_failures <> 0` : sql``}
    )
    select endpoint_id from recorded`.execute(kyselyOf(em));
  return result.rows.length > 0;
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
