import { iso } from '../../lib/dates.ts';
import type { TEventRow } from './events.repository.ts';

/** An event as webhooks deliver it (CONTRACT: id, type, occurred_at, tenant, data). */
export type TEventPayload = { id: string; type: string; occurred_at: string; tenant: string; data: Record<string, unknown> };

export function toEventPayload(row: TEventRow): TEventPayload {
  return { id: row.id, type: row.type, occurred_at: iso(row.occurred_at), tenant: row.tenant, data: row.data };
}
