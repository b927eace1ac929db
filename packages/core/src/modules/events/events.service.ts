/**
 * The events module's service: the event outbox and the change feed read from it (CONTRACT "Events, webhooks and the
 * change feed"). The reads that span every tenant (the webhook dispatcher's, the worker's scheduled jobs) are in
 * events.jobs.service.ts, an operator path: a file is what the layer check licenses to use the unscoped handle, so
 * this service, which only ever sees one tenant, stays without it.
 *
 * Writing: `recordEvent(ctx, …)` inside the transaction of the change (pass the transaction's context,
 * `serviceContext(tx, tenantId)`); vacancy and article events are written by database triggers, whoever changes the rows.
 *
 * Ordering: every event gets a `position` when its transaction commits (see the events sequencing migrations);
 * concurrent committers do not wait for each other. A reader keeps the last position it has handled and asks for
 * `position > last` up to the horizon (`eventsHorizon`), below which every entry is final: it never skips an entry
 * that committed late, because nothing is read above a position that may still become visible. Events are pruned
 * after the retention (≥ 30 days).
 */
import { iso } from '../../lib/dates.ts';
import { AppError } from '../../lib/errors.ts';
import { hasScope, type TScope } from '../../lib/scopes.ts';
import type { TServiceContext, TServiceContextWithEm } from '../service-context.ts';
import { serverSecret } from '../server-secrets/server-secrets.service.ts';
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor.ts';
import { CHANGE_TYPES, type TChangesPage, type TChangesRequest, type TChangeType } from './event.dto.ts';
import type { TEventObject } from './event.entity.ts';
import {
  eventsHorizon,
  insertEvent,
  latestPrunedPosition,
  tenantEventsAfter,
  tenantPrunedThrough,
  type TEventRow,
  type TNewEvent,
} from './events.repository.ts';

/** Records an event of the context's tenant in the caller's transaction; `data` always carries the object's `id` (and `slug` if given). */
export async function recordEvent(ctx: TServiceContext, event: Omit<TNewEvent, 'tenantId'>): Promise<{ id: string }> {
  const data = { id: event.objectId, ...(event.slug === undefined ? {} : { slug: event.slug }), ...event.data };
  return insertEvent(ctx.db, { ...event, tenantId: ctx.tenant.id, data });
}

/** The tenant's events after a position, up to the horizon. */
export async function readEventsAfter(
  ctx: TServiceContext,
  input: { after: number; objects?: readonly TEventObject[]; limit: number },
): Promise<TEventRow[]> {
  const horizon = await eventsHorizon(ctx.db);
  if (horizon === null || horizon <= input.after) return [];
  return tenantEventsAfter(ctx.db, ctx.tenant.id, input.after, {
    objects: input.objects ?? ['vacancy', 'article', 'application', 'candidate', 'resume'],
    limit: input.limit,
    horizon,
  });
}

/** A position every later entry comes after (a cursor for "from now on"); 503 while a committer takes too long. */
export async function currentEventsPosition(ctx: TServiceContext): Promise<number> {
  const horizon = await eventsHorizon(ctx.db);
  if (horizon === null) throw new AppError('SERVICE_UNAVAILABLE');
  return Math.max(horizon, await latestPrunedPosition(ctx.db));
}

const SCOPE_OF: Record<TChangeType, TScope> = {
  vacancy: 'vacancies:read',
  article: 'articles:read',
  candidate: 'candidates:read',
};

/** The entry types a key may read; a key that may read none is 403 on `vacancies:read` (before input validation). */
export function readableChangeTypes(scopes: readonly string[]): TChangeType[] {
  const readable = CHANGE_TYPES.filter((type) => hasScope(scopes, SCOPE_OF[type]));
  if (readable.length === 0) throw AppError.insufficientScope('vacancies:read');
  return readable;
}

/** `em` reaches the primary (the cursor key is made there once); `db` is the tenant's scoped handle. */
export type TChangeFeedContext = TServiceContextWithEm & { apiKey: { scopes: string[] } };

/** The name of the stored key that seals change-feed cursors (the same in every process). */
const CURSOR_KEY = 'change-feed-cursors';

/**
 * `GET /changes`: the tenant's vacancy and article events after a cursor, in commit order. A cursor stands for a
 * position (above), sealed for the tenant (change-cursor.ts): the page is the next `limit` positions above it, so no
 * entry is skipped, and no reader learns a position.
 */
export async function listChanges(ctx: TChangeFeedContext, input: TChangesRequest): Promise<TChangesPage> {
  const readable = readableChangeTypes(ctx.apiKey.scopes);
  const denied = (input.types ?? []).find((type) => !readable.includes(type));
  if (denied) throw AppError.insufficientScope(SCOPE_OF[denied]);
  const objects = input.types && input.types.length > 0 ? [...new Set(input.types)] : readable;

  const tenantId = ctx.tenant.id;
  const key = await serverSecret(ctx, { name: CURSOR_KEY });
  let after = 0;
  if (input.after !== undefined) {
    // Forged, altered, or another tenant's: authentication fails, and it is not a cursor of ours.
    const position = decodeChangeCursor(key, tenantId, input.after);
    if (position === null) throw AppError.validation({ after: ['The selected after is invalid.'] });
    if (position < (await tenantPrunedThrough(ctx.db, tenantId))) throw new AppError('CURSOR_EXPIRED');
    after = position;
  }
  const rows = await readEventsAfter(ctx, { after, objects, limit: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  const data = page.map((row) => ({
    cursor: encodeChangeCursor(key, tenantId, row.position),
    event_id: row.id,
    type: row.type,
    object: row.object as TChangeType,
    id: Number(row.object_id),
    slug: row.slug,
    occurred_at: iso(row.occurred_at),
  }));
  // With no `after` and no entry, a cursor at the latest position: later entries all come after it.
  const nextCursor =
    data.at(-1)?.cursor ?? input.after ?? encodeChangeCursor(key, tenantId, await currentEventsPosition(ctx));
  return { data, next_cursor: nextCursor, has_more: rows.length > input.limit };
}
