import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';

/** Sign-in attempts allowed per email and client address in one fixed window. */
export const SIGN_IN_ATTEMPTS = 5;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export type TSignInThrottle = { blocked: boolean; retryAfter: number };

/** One bucket per email and address, stored hashed: the rate-limit table holds no email addresses. */
function bucketOf(email: string, clientIp: string): string {
  const digest = createHash('sha256').update(`${email.trim().toLowerCase()}\n${clientIp}`, 'utf8').digest('hex');
  return `signin:${digest}`;
}

/**
 * Counts a sign-in attempt before the password is checked, in one atomic upsert, so parallel guesses
 * cannot slip past the limit; a successful sign-in clears the count (see clearSignInAttempts).
 */
export async function countSignInAttempt(em: EntityManager, email: string, clientIp: string): Promise<TSignInThrottle> {
  const rows = await em.execute<{ hits: number; retry_after: number }[]>(
    `insert into rate_limit_windows as w (bucket, window_start, hits) values (?, clock_timestamp(), 1)
     on conflict (bucket) do update set
       window_start = case when w.window_start <= clock_timestamp() - make_interval(secs => ?) then clock_timestamp() else w.window_start end,
       hits = case when w.window_start <= clock_timestamp() - make_interval(secs => ?) then 1 else w.hits + 1 end
     returning w.hits, ceil(extract(epoch from (w.window_start + make_interval(secs => ?) - clock_timestamp())))::int as retry_after`,
    [bucketOf(email, clientIp), SIGN_IN_WINDOW_SECONDS, SIGN_IN_WINDOW_SECONDS, SIGN_IN_WINDOW_SECONDS],
  );
  const row = rows[0];
  if (!row) throw new Error('sign-in throttle upsert returned no row');
  return {
    blocked: Number(row.hits) > SIGN_IN_ATTEMPTS,
    retryAfter: Math.min(SIGN_IN_WINDOW_SECONDS, Math.max(1, Number(row.retry_after))),
  };
}

export async function clearSignInAttempts(em: EntityManager, email: string, clientIp: string): Promise<void> {
  await em.execute('delete from rate_limit_windows where bucket = ?', [bucketOf(email, clientIp)]);
}
