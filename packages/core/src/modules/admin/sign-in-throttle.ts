import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { sweepExpiredWindowsNowAndThen } from '../rate-limits/rate-limits.ts';
import { clientAddressGroup } from '../rate-limits/client-address.ts';

export { clientAddressGroup };

/**
 * Failed sign-in attempts allowed in one fixed window, per account (email, whatever address guesses it) and per
 * client address (whatever emails it tries). Both are counted in PostgreSQL, so they hold across processes.
 */
export const SIGN_IN_ATTEMPTS_PER_ACCOUNT = 10;
export const SIGN_IN_ATTEMPTS_PER_ADDRESS = 20;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export type TSignInThrottle = { blocked: boolean; retryAfter: number };

function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Buckets are stored hashed: the rate-limit table holds no email addresses and no client addresses. */
function accountBucket(email: string): string {
  return `signin:account:${digest(email.trim().toLowerCase())}`;
}

function addressBucket(clientIp: string): string {
  return `signin:address:${digest(clientAddressGroup(clientIp))}`;
}

/**
 * Counts a sign-in attempt against its account and its address before the password is checked, in one atomic
 * upsert of both windows (always in that order, so concurrent attempts cannot deadlock), so parallel guesses cannot
 * slip past either limit. A successful sign-in takes itself back (see forgiveSignInAttempt).
 */
export async function countSignInAttempt(em: EntityManager, email: string, clientIp: string): Promise<TSignInThrottle> {
  await sweepExpiredWindowsNowAndThen(em);
  const account = accountBucket(email);
  const rows = await em.execute<{ bucket: string; hits: number; retry_after: number }[]>(
    `insert into rate_limit_windows as w (bucket, window_start, hits) values (?, clock_timestamp(), 1), (?, clock_timestamp(), 1)
     on conflict (bucket) do update set
       window_start = case when w.window_start <= clock_timestamp() - make_interval(secs => ?) then clock_timestamp() else w.window_start end,
       hits = case when w.window_start <= clock_timestamp() - make_interval(secs => ?) then 1 else w.hits + 1 end
     returning w.bucket, w.hits, ceil(extract(epoch from (w.window_start + make_interval(secs => ?) - clock_timestamp())))::int as retry_after`,
    [account, addressBucket(clientIp), SIGN_IN_WINDOW_SECONDS, SIGN_IN_WINDOW_SECONDS, SIGN_IN_WINDOW_SECONDS],
  );
  if (rows.length !== 2) throw new Error('sign-in throttle upsert returned no rows');
  const over = rows.filter((row) => Number(row.hits) > (row.bucket === account ? SIGN_IN_ATTEMPTS_PER_ACCOUNT : SIGN_IN_ATTEMPTS_PER_ADDRESS));
  const retryAfter = Math.max(1, ...over.map((row) => Number(row.retry_after)));
  return { blocked: over.length > 0, retryAfter: Math.min(SIGN_IN_WINDOW_SECONDS, retryAfter) };
}

/**
 * After a successful sign-in: the account starts afresh, and the address gets this attempt back (only failures
 * count against an office of administrators behind one address; an attacker's guesses stay counted).
 */
export async function forgiveSignInAttempt(em: EntityManager, email: string, clientIp: string): Promise<void> {
  await em.execute('delete from rate_limit_windows where bucket = ?', [accountBucket(email)]);
  await em.execute('update rate_limit_windows set hits = greatest(hits - 1, 0) where bucket = ?', [addressBucket(clientIp)]);
}

/**
 * Password checks (argon2id: ~0.1 s of CPU and 19 MiB each) running at once in this process. Beyond `max` a sign-in
 * waits up to `waitMs` in a queue of at most `maxWaiting`; then it is answered as throttled, so a flood of attempts
 * (from many addresses, each under its limit) cannot take every core and the memory of the process.
 */
export class PasswordCheckSlots {
  readonly #max: number;
  readonly #maxWaiting: number;
  readonly #waitMs: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];
  /** The most checks that ever ran at once (tests and diagnostics). */
  peak = 0;

  constructor(options: { max: number; maxWaiting: number; waitMs: number }) {
    this.#max = options.max;
    this.#maxWaiting = options.maxWaiting;
    this.#waitMs = options.waitMs;
  }

  /** Runs `check` in a slot; undefined when no slot became free in time. */
  async run<T>(check: () => Promise<T>): Promise<T | undefined> {
    if (!(await this.#acquire())) return undefined;
    try {
      return await check();
    } finally {
      this.#release();
    }
  }

  async #acquire(): Promise<boolean> {
    if (this.#running < this.#max) {
      this.#take();
      return true;
    }
    if (this.#waiting.length >= this.#maxWaiting) return false;
    return new Promise<boolean>((resolve) => {
      const grant = () => {
        clearTimeout(timer);
        this.#take();
        resolve(true);
      };
      const timer = setTimeout(() => {
        const index = this.#waiting.indexOf(grant);
        if (index >= 0) this.#waiting.splice(index, 1);
        resolve(false);
      }, this.#waitMs);
      this.#waiting.push(grant);
    });
  }

  #take(): void {
    this.#running++;
    this.peak = Math.max(this.peak, this.#running);
  }

  #release(): void {
    this.#running--;
    this.#waiting.shift()?.();
  }
}
