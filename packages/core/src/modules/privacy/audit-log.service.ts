import { serviceContext, type TOperatorContext, type TServiceContext } from '../service-context.ts';
import { iso } from '../../lib/dates.ts';
import { findAuditEntries, insertAuditEntry, type TAuditEntry } from './audit-log.repository.ts';
import { ownerTenant, type TOwnedTable } from '../tenants/owner-tenant.ts';

export type { TAuditEntry };

/** Who acts: an administrator (their email), an API key, the CLI or the retention sweep. */
export const auditActor = {
  admin: (email: string) => email,
  apiKey: (key: { id: number; name: string }) => `api key #${key.id} (${key.name})`,
  cli: () => 'cli',
  sweep: () => 'retention sweep',
} as const;

/** Records an entry in the audit log of the context's tenant (in the caller's transaction, if any). */
export async function recordAudit(ctx: TServiceContext, entry: TAuditEntry): Promise<void> {
  await insertAuditEntry(ctx.db, entry);
}

export type TAuditLogPage = {
  entries: Array<{
    id: number;
    actor: string;
    action: string;
    subject: string | null;
    details: Record<string, unknown>;
    created_at: string;
  }>;
  next_before: number | null;
};

/** A page of the tenant's audit log, newest first. */
export async function listAuditLog(
  ctx: TServiceContext,
  input: { before?: number; limit: number },
): Promise<TAuditLogPage> {
  const rows = await findAuditEntries(ctx.db, { before: input.before, limit: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  return {
    entries: page.map((row) => ({ ...row, created_at: iso(row.created_at) })),
    next_before: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * An operator's action (the `careers` CLI) in the audit log of the tenant it concerns: `tenantId`, or the tenant that
 * owns row `id` of `table` (looked up before the action, e.g. a deletion, by `ownerTenant`); the entry is written
 * through that tenant's scoped handle.
 */
export async function recordOperatorAudit(
  ctx: TOperatorContext,
  input: { owner: { tenantId: number } | { table: TOwnedTable; id: number }; entry: TAuditEntry },
): Promise<void> {
  const { owner } = input;
  const tenantId = 'tenantId' in owner ? owner.tenantId : await ownerTenant(ctx.em, owner.table, owner.id);
  if (tenantId !== undefined) await recordAudit(serviceContext(ctx.em, tenantId), input.entry);
}
