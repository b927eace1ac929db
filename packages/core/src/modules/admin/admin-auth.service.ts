import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../users/password.ts';
import { serviceContext, type TOperatorContext } from '../service-context.ts';
import { createAdminSession } from './admin-session.service.ts';
import { findAccountsByEmail } from './admin-sign-in.repository.ts';
import { countSignInAttempt, forgiveSignInAttempt, PasswordCheckSlots } from './sign-in-throttle.ts';

/** The role that may use the dashboard. */
export const ADMIN_ROLE = 'admin';

export type TSignedInUser = { id: number; name: string; email: string; role: string };
export type TSignedInTenant = {
  id: number;
  slug: string;
  name: string;
  default_language: string;
  api_enabled: boolean;
};

export type TSignInResult =
  | { ok: true; token: string; expiresAt: Date; user: TSignedInUser; tenant: TSignedInTenant }
  | { ok: false; reason: 'invalid_credentials' }
  | { ok: false; reason: 'throttled'; retryAfter: number };

/** Emails are unique per tenant only; more matches than this are not tried. */
const MAX_ACCOUNTS_PER_EMAIL = 10;

/** Two checks at once (the machine's cores), up to 16 more waiting at most 5 s each. */
export const PASSWORD_CHECKS = new PasswordCheckSlots({ max: 2, maxWaiting: 16, waitMs: 5_000 });
/** How long a sign-in turned away for want of a free password check is asked to wait. */
const BUSY_RETRY_AFTER_SECONDS = 1;

let dummyHash: Promise<string> | undefined;
/** A hash to verify against when no account matches, so a wrong email takes as long as a wrong password. */
function timingDummy(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/**
 * Checks an email and password and starts a dashboard session. The same email may exist in several
 * tenants: the first administrator account (by id) whose password matches wins. Attempts are throttled
 * per account and per client address before any password is checked, and the password checks of the process
 * run a few at a time. A right password of a user who is no administrator is answered like a wrong one (the
 * answer does not tell that the account exists).
 */
export async function signIn(
  ctx: TOperatorContext,
  input: { email: string; password: string; clientIp: string },
  options: { slots?: PasswordCheckSlots } = {},
): Promise<TSignInResult> {
  const { em } = ctx;
  const throttle = await countSignInAttempt(em, input.email, input.clientIp);
  if (throttle.blocked) return { ok: false, reason: 'throttled', retryAfter: throttle.retryAfter };

  // The one question without a tenant scope: the tenant is what sign-in finds out.
  const accounts = await findAccountsByEmail(em, input.email, MAX_ACCOUNTS_PER_EMAIL);

  const dummy = await timingDummy();
  const matching = await (options.slots ?? PASSWORD_CHECKS).run(async () => {
    const found: typeof accounts = [];
    for (const account of accounts) {
      if (account.password_hash && (await verifyPassword(account.password_hash, input.password))) found.push(account);
    }
    if (accounts.every((account) => !account.password_hash)) await verifyPassword(dummy, input.password);
    return found;
  });
  if (!matching) return { ok: false, reason: 'throttled', retryAfter: BUSY_RETRY_AFTER_SECONDS };

  const admin = matching.find((account) => account.role === ADMIN_ROLE);
  if (!admin) return { ok: false, reason: 'invalid_credentials' };

  await forgiveSignInAttempt(em, input.email, input.clientIp);
  const { token, expiresAt } = await createAdminSession(serviceContext(em, admin.tenant_id), { userId: admin.id });
  return {
    ok: true,
    token,
    expiresAt,
    user: { id: admin.id, name: admin.name, email: admin.email, role: admin.role },
    tenant: {
      id: admin.tenant_id,
      slug: admin.tenant_slug,
      name: admin.tenant_name,
      default_language: admin.default_language,
      api_enabled: admin.api_enabled,
    },
  };
}
