import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { crossTenantDb } from '../../db/kysely.ts';
import { deliveryRow, type TNewDelivery } from './webhook.repository.ts';

/*
 * The delivery worker's queries. An operator path (scripts/check-layers.ts OPERATOR_PATHS): the dispatcher and the
 * sender serve every tenant at once, so they use the one unscoped handle, `crossTenantDb`. A tenant's own endpoints
 * and deliveries are in webhook.repository.ts, through the scoped handle.
 */

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
    const db = crossTenantDb(tx);
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
export async function recordAttempt(
  em: EntityManager,
  delivery: { id: number; attempts: number },
  outcome: TAttemptOutcome,
): Promise<boolean> {
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
    select endpoint_id from recorded`.execute(crossTenantDb(em));
  return result.rows.length > 0;
}

/** The enabled endpoints of these tenants, with the event types each wants. */
export async function selectEnabledEndpoints(
  em: EntityManager,
  tenantIds: readonly number[],
): Promise<{ id: number; tenant_id: number; event_types: string[] }[]> {
  if (tenantIds.length === 0) return [];
  const rows = await crossTenantDb(em)
    .selectFrom('webhook_endpoints')
    .select(['id', 'tenant_id', 'event_types'])
    .where('tenant_id', 'in', [...tenantIds])
    .where('disabled_at', 'is', null)
    .execute();
  return rows as unknown as { id: number; tenant_id: number; event_types: string[] }[];
}

/** The dispatcher's position in the event stream, locked for this transaction (one dispatcher at a time). */
export async function lockDispatchCursor(em: EntityManager, name: string): Promise<number> {
  const db = crossTenantDb(em);
  await db
    .insertInto('webhook_dispatch_cursors')
    .values({ name, position: 0 } as never)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('webhook_dispatch_cursors')
    .select('position')
    .where('name', '=', name)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return Number(row.position);
}

export async function saveDispatchCursor(em: EntityManager, name: string, position: number): Promise<void> {
  await crossTenantDb(em)
    .updateTable('webhook_dispatch_cursors')
    .set({ position, updated_at: new Date() })
    .where('name', '=', name)
    .execute();
}

/** Creates deliveries that are due now; one per (endpoint, event): a second insert of the same pair is ignored. */
export async function insertDeliveries(em: EntityManager, deliveries: readonly TNewDelivery[]): Promise<number> {
  if (deliveries.length === 0) return 0;
  const result = await crossTenantDb(em)
    .insertInto('webhook_deliveries')
    .values(deliveries.map(deliveryRow))
    .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function disableEndpoint(em: EntityManager, id: number, reason: string): Promise<void> {
  await crossTenantDb(em)
    .updateTable('webhook_endpoints')
    .set({ disabled_at: new Date(), disabled_reason: reason })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .execute();
}

/** Deletes finished deliveries (delivered or failed) created before `before`, a batch at a time. */
export async function pruneFinishedDeliveries(em: EntityManager, before: Date, batchSize = 5000): Promise<number> {
  const result = await sql`delete from webhook_deliveries where id in (
      select id from webhook_deliveries where state <> 'pending' and created_at < ${before} limit ${batchSize})`.execute(
    crossTenantDb(em),
  );
  return Number(result.numAffectedRows ?? 0);
}
