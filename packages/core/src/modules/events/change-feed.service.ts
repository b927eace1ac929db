import type { EntityManager } from '@mikro-orm/postgresql';
import type { TDb } from '../../db/kysely.ts';
import { iso } from '../../lib/dates.ts';
import { AppError } from '../../lib/errors.ts';
import { hasScope, type TScope } from '../../lib/scopes.ts';
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor.ts';
import { tenantPrunedThrough } from './events.repository.ts';
import { currentEventsPosition, readEventsAfter } from './events.service.ts';
import { serverSecret } from '../server-secrets/server-secrets.service.ts';
import { CHANGE_TYPES, type TListChangesInput, type TListChangesOutput } from './procedures/list-changes.schema.ts';

type TChangeType = (typeof CHANGE_TYPES)[number];
const SCOPE_OF: Record<TChangeType, TScope> = { vacancy: 'vacancies:read', article: 'articles:read', candidate: 'candidates:read' };

/** The entry types a key may read; a key that may read none is 403 on `vacancies:read` (before input validation). */
export function readableChangeTypes(scopes: readonly string[]): TChangeType[] {
  const readable = CHANGE_TYPES.filter((type) => hasScope(scopes, SCOPE_OF[type]));
  if (readable.length === 0) throw AppError.insufficientScope('vacancies:read');
  return readable;
}

/** `em` reaches the primary (the cursor key is made there once); `db` is the tenant's scoped handle. */
export type TChangeFeedContext = { db: TDb; em: EntityManager; tenant: { id: number }; apiKey: { scopes: string[] } };

/** The name of the stored key that seals change-feed cursors (the same in every process). */
const CURSOR_KEY = 'change-feed-cursors';

/**
 * `GET /changes`: the tenant's vacancy and article events after a cursor, in commit order. A cursor stands for a
 * position (see events.service.ts), sealed for the tenant (change-cursor.ts): the page is the next `limit` positions
 * above it, so no entry is skipped, and no reader learns a position.
 */
export async function listChanges(ctx: TChangeFeedContext, input: TListChangesInput): Promise<TListChangesOutput> {
  const readable = readableChangeTypes(ctx.apiKey.scopes);
  const denied = (input.types ?? []).find((type) => !readable.includes(type));
  if (denied) throw AppError.insufficientScope(SCOPE_OF[denied]);
  const objects = input.types && input.types.length > 0 ? [...new Set(input.types)] : readable;

  const tenantId = ctx.tenant.id;
  const key = await serverSecret(ctx.em, CURSOR_KEY);
  let after = 0;
  if (input.after !== undefined) {
    // Forged, altered, or another tenant's: authentication fails, and it is not a cursor of ours.
    const position = decodeChangeCursor(key, tenantId, input.after);
    if (position === null) throw AppError.validation({ after: ['The selected after is invalid.'] });
    if (position < (await tenantPrunedThrough(ctx.db, tenantId))) throw new AppError('CURSOR_EXPIRED');
    after = position;
  }
  const rows = await readEventsAfter(ctx.db, tenantId, after, { objects, limit: input.limit + 1 });
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
  const nextCursor = data.at(-1)?.cursor ?? input.after ?? encodeChangeCursor(key, tenantId, await currentEventsPosition(ctx.db));
  return { data, next_cursor: nextCursor, has_more: rows.length > input.limit };
}
