import { iso } from '../../lib/dates.ts';
import type { TEventRow } from './events.repository.ts';

/** An event as webhooks deliver it (CONTRACT: id, type, occurred_at, tenant, data). */
export type TEventPayload = {
  id: string;
  type: string;
  occurred_at: string;
  tenant: string;
  data: Record<string, unknown>;
};

export function toEventPayload(row: TEventRow): TEventPayload {
  return { id: row.id, type: row.type, occurred_at: iso(row.occurred_at), tenant: row.tenant, data: row.data };
}

/** The entry types of the change feed (`GET /changes`). */
export const CHANGE_TYPES = ['vacancy', 'article', 'candidate'] as const;
export type TChangeType = (typeof CHANGE_TYPES)[number];

/** What a reader asks the change feed: entries after a cursor, of some types, at most `limit`. */
export type TChangesRequest = { after?: string; limit: number; types?: TChangeType[] };

/** One page of the change feed, as the list-changes procedure answers it. */
export type TChangesPage = {
  data: Array<{
    cursor: string;
    event_id: string;
    type: string;
    object: TChangeType;
    id: number;
    slug: string | null;
    occurred_at: string;
  }>;
  next_cursor: string;
  has_more: boolean;
};
