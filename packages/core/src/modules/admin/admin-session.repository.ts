import type { TDb } from '../../db/kysely.ts';

/** A new session of a user of the tenant, by the SHA-256 of its token. */
export async function insertAdminSession(
  db: TDb,
  session: { tokenHash: string; userId: number; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('admin_sessions')
    .values({ token_hash: session.tokenHash, user_id: session.userId, expires_at: session.expiresAt } as never)
    .execute();
}

/** Marks a session of the tenant revoked (the first revocation time stays). */
export async function revokeAdminSessionRow(db: TDb, sessionId: number): Promise<void> {
  await db
    .updateTable('admin_sessions')
    .set({ revoked_at: new Date() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}
