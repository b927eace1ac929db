import { createHash, randomBytes } from 'node:crypto';
import type { TOperatorContext, TServiceContext } from '../service-context.ts';
import { insertAdminSession, revokeAdminSessionRow } from './admin-session.repository.ts';
import { findLiveSession } from './admin-sign-in.repository.ts';

/** A signed-in dashboard user, as the admin procedures see it. */
export type TAdminSession = {
  userId: number;
  tenantId: number;
  role: string;
  sessionId: string /** The administrator's email: who acts, in the audit log. */;
  email: string;
};

/** How long a dashboard session lasts after sign-in (a working day). */
export const ADMIN_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** 256 random bits, base64url: exactly 43 characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Starts a session of a user of the context's tenant; the returned token goes into the cookie and is stored only as its SHA-256. */
export async function createAdminSession(
  ctx: TServiceContext,
  input: { userId: number },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ADMIN_SESSION_TTL_MS);
  await insertAdminSession(ctx.db, { tokenHash: hashToken(token), userId: input.userId, expiresAt });
  return { token, expiresAt };
}

/**
 * The session a cookie token stands for, or undefined when it is unknown, expired or signed out.
 * The role is read from the user on every request, so a demoted administrator loses access at once.
 */
export async function resolveAdminSession(
  ctx: TOperatorContext,
  input: { token: string | undefined },
): Promise<TAdminSession | undefined> {
  const { token } = input;
  if (!token || !TOKEN_SHAPE.test(token)) return undefined;
  const row = await findLiveSession(ctx.em, hashToken(token));
  if (!row) return undefined;
  return { sessionId: String(row.id), tenantId: row.tenant_id, userId: row.user_id, role: row.role, email: row.email };
}

/** Ends a session (sign-out); its token stops working in every process at once (sessions are not cached). */
export async function revokeAdminSession(ctx: TServiceContext, input: { session: TAdminSession }): Promise<void> {
  await revokeAdminSessionRow(ctx.db, Number(input.session.sessionId));
}
