import { sql } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import type { TEventObject } from './event.entity.ts';

export type TNewEvent = {
  tenantId: number;
  type: string;
  object: TEventObject;
  objectId: number | string;
  slug?: string | null;
  data: Record<string, unknown>;
};

/** A committed event as readers see it. */
export type TEventRow = {
  position: number;
  id: string;
  tenant_id: number;
  tenant: string;
  type: string;
  object: TEventObject;
  object_id: string;
  slug: string | null;
  data: Record<string, unknown>;
  /** A Date, or the text raw SQL may give. */
  occurred_at: Date | string;
};

type TRawEventRow = Omit<TEventRow, 'position'> & { position: string };

const toRow = (row: TRawEventRow): TEventRow => ({ ...row, position: Number(row.position) });

export async function insertEvent(db: TDb, event: TNewEvent): Promise<{ id: string }> {
  const { rows } = await sql<{ id: string }>`insert into events (tenant_id, type, object, object_id, slug, data)
    values (${event.tenantId}, ${event.type}, ${event.object}, ${String(event.objectId)}, ${event.slug ?? null}, ${JSON.stringify(event.data)}::jsonb)
    returning id`.execute(db);
  return rows[0]!;
}

/**
 * A position below which every event is final (its transaction committed or rolled back), or null when a committer
 * takes too long to tell (see Migration20261128020000). Ask it in a statement of its own, before the read: the read's
 * snapshot must be taken after the wait.
 */
export async function eventsHorizon(db: TDb): Promise<number | null> {
  const { rows } = await sql<{ horizon: string | null }>`select careers_events_horizon() as horizon`.execute(db);
  const horizon = rows[0]?.horizon;
  return horizon === null || horizon === undefined ? null : Number(horizon);
}

/** A tenant's events after a position up to the horizon, in position order (`events_tenant_position_idx`). */
export async function tenantEventsAfter(
  db: TDb,
  tenantId: number,
  after: number,
  options: { objects: readonly TEventObject[]; limit: number; horizon: number },
): Promise<TEventRow[]> {
  const { rows } =
    await sql<TRawEventRow>`select e.position, e.id, e.tenant_id, t.slug as tenant, e.type, e.object, e.object_id, e.slug, e.data, e.occurred_at
    from events e join tenants t on t.id = e.tenant_id
    where e.tenant_id = ${tenantId} and e.position > ${after} and e.position <= ${options.horizon} and e.object = any(${options.objects}::text[])
    order by e.position
    limit ${options.limit}`.execute(db);
  return rows.map(toRow);
}

/** Every tenant's events after a position up to the horizon, in position order (`events_position_idx`). */
export async function allEventsAfter(db: TDb, after: number, limit: number, horizon: number): Promise<TEventRow[]> {
  const { rows } =
    await sql<TRawEventRow>`select e.position, e.id, e.tenant_id, t.slug as tenant, e.type, e.object, e.object_id, e.slug, e.data, e.occurred_at
    from events e join tenants t on t.id = e.tenant_id
    where e.position > ${after} and e.position <= ${horizon}
    order by e.position
    limit ${limit}`.execute(db);
  return rows.map(toRow);
}

/** The highest position of the tenant's events pruned so far (0: none): a cursor below it may have missed entries. */
export async function tenantPrunedThrough(db: TDb, tenantId: number): Promise<number> {
  const { rows } = await sql<{
    pruned_through: string;
  }>`select pruned_through from event_retention where tenant_id = ${tenantId}`.execute(db);
  return Number(rows[0]?.pruned_through ?? 0);
}

/** The highest position pruned so far (0: none). */
export async function latestPrunedPosition(db: TDb): Promise<number> {
  const { rows } = await sql<{
    position: string;
  }>`select coalesce(max(pruned_through), 0) as position from event_retention`.execute(db);
  return Number(rows[0]?.position ?? 0);
}

/**
 * Deletes the events that occurred before `before` (in bounded batches, each its own statement) and raises each
 * tenant's watermark to the highest of its positions deleted, in the same statement.
 */
export async function pruneEventsBefore(db: TDb, before: Date, batchSize = 10_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rows } = await sql<{ count: string }>`with gone as (
        delete from events where seq in (
          select seq from events where occurred_at < ${before} and position is not null order by position limit ${batchSize}
        ) returning tenant_id, position
      ), marked as (
        insert into event_retention (tenant_id, pruned_through)
        select tenant_id, max(position) from gone group by tenant_id
        on conflict (tenant_id) do update set pruned_through = greatest(event_retention.pruned_through, excluded.pruned_through)
      )
      select count(*) as count from gone`.execute(db);
    const count = Number(rows[0]?.count ?? 0);
    deleted += count;
    if (count < batchSize) return deleted;
  }
}
