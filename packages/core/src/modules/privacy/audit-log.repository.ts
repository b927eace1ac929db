import type { TDb } from '../../db/kysely.ts';
import type { TAuditAction } from './audit-log.entity.ts';

export type TAuditEntry = {
  actor: string;
  action: TAuditAction;
  subject?: string | null;
  details?: Record<string, unknown>;
};

export type TAuditRow = {
  id: number;
  actor: string;
  action: TAuditAction;
  subject: string | null;
  details: Record<string, unknown>;
  created_at: Date;
};

/** Records one entry in the tenant's audit log (in the caller's transaction, so it commits with what it records). */
export async function insertAuditEntry(db: TDb, entry: TAuditEntry): Promise<void> {
  await db
    .insertInto('audit_log_entries')
    .values({
      actor: entry.actor,
      action: entry.action,
      subject: entry.subject ?? null,
      details: JSON.stringify(entry.details ?? {}),
    } as never)
    .execute();
}

/** The tenant's newest entries, older than `before` (an id) when given. */
export async function findAuditEntries(db: TDb, options: { before?: number; limit: number }): Promise<TAuditRow[]> {
  let query = db.selectFrom('audit_log_entries').select(['id', 'actor', 'action', 'subject', 'details', 'created_at']);
  if (options.before !== undefined) query = query.where('id', '<', options.before);
  const rows = await query.orderBy('id', 'desc').limit(options.limit).execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) })) as TAuditRow[];
}
