import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { crossTenantDb } from '../../db/kysely.ts';
import { sweepExpiredWindowsNowAndThen } from '../rate-limits/rate-limit.service.ts';
import { clientAddressGroup } from '../rate-limits/client-address.ts';

export { clientAddressGroup };

/**
 * Sign-in slows down instead of locking out (CONTRACT "Guarding the shared service"). Per account (email, whatever
 * address guesses it): the first SIGN_IN_FREE_FAILURES failures cost nothing; after that each attempt must wait a delay
 * that doubles with every failure (1 s, 2 s, 4 s … at most SIGN_IN_MAX_DELAY_SECONDS) after the previous one, so a
 * guesser gets a few hundred tries a day while the owner, at worst, waits half a minute. An address the account signed
 * in from successfully before skips the account's delay entirely: others' failures never refuse its right password.
 * Per client address (whatever emails it tries), SIGN_IN_ATTEMPTS_PER_ADDRESS failures in a fixed window, as before.
 * Everything is counted in PostgreSQL, so it holds across processes. An operator path (scripts/check-layers.ts): the
 * windows and known addresses belong to no tenant (an account is found before its tenant is), so `crossTenantDb`.
 */
export const SIGN_IN_FREE_FAILURES = 3;
export const SIGN_IN_MAX_DELAY_SECONDS = 30;
export const SIGN_IN_ATTEMPTS_PER_ADDRESS = 20;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export type TSignInThrottle = { blocked: boolean; retryAfter: number };

function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

const accountDigest = (email: string) => digest(email.trim().toLowerCase());
const addressDigest = (clientIp: string) => digest(clientAddressGroup(clientIp));

/** Buckets are stored hashed: the rate-limit table holds no email addresses and no client addresses. */
function accountBucket(email: string): string {
  return `signin:account:${accountDigest(email)}`;
}

function addressBucket(clientIp: string): string {
  return `signin:address:${addressDigest(clientIp)}`;
}

/** The wait after `failures` failures in a row (SQL): none for the free ones, then 1 s doubling up to the maximum. */
const DELAY_SQL = sql.raw(
  `case when w.hits < ${SIGN_IN_FREE_FAILURES} then 0 else least(${SIGN_IN_MAX_DELAY_SECONDS}, power(2, w.hits - ${SIGN_IN_FREE_FAILURES})) end`,
);

/**
 * Counts a sign-in attempt before the password is checked (a successful sign-in takes it back, see
 * forgiveSignInAttempt), so parallel guesses cannot slip past: against its address's window, and — unless the account
 * signed in from this address before — as a failure of the account, which is refused while the account's delay since
 * its last failure runs (one statement takes the turn: the row lock orders concurrent guesses, and only the first of
 * them gets it). Failures of an account are forgotten SIGN_IN_WINDOW_SECONDS after the last one.
 */
export async function countSignInAttempt(em: EntityManager, email: string, clientIp: string): Promise<TSignInThrottle> {
  await sweepExpiredWindowsNowAndThen({ em });
  const db = crossTenantDb(em);
  const {
    rows: [address],
  } = await sql<{ hits: number; retry_after: number }>`
    insert into rate_limit_windows as w (bucket, window_start, hits) values (${addressBucket(clientIp)}, clock_timestamp(), 1)
    on conflict (bucket) do update set
      window_start = case when w.window_start <= clock_timestamp() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) then clock_timestamp() else w.window_start end,
      hits = case when w.window_start <= clock_timestamp() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) then 1 else w.hits + 1 end
    returning w.hits, ceil(extract(epoch from (w.window_start + make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) - clock_timestamp())))::int as retry_after`.execute(
    db,
  );
  if (!address) throw new Error('sign-in throttle upsert returned no row');
  if (Number(address.hits) > SIGN_IN_ATTEMPTS_PER_ADDRESS)
    return { blocked: true, retryAfter: Math.min(SIGN_IN_WINDOW_SECONDS, Math.max(1, Number(address.retry_after))) };

  if (await isKnownAddress(em, email, clientIp)) return { blocked: false, retryAfter: 0 };
  // The account's row holds its failures in a row (hits) and when the last one was counted (window_start).
  const bucket = accountBucket(email);
  const turn = await sql<{ hits: number }>`
    insert into rate_limit_windows as w (bucket, window_start, hits) values (${bucket}, clock_timestamp(), 1)
    on conflict (bucket) do update set
      hits = case when w.window_start <= clock_timestamp() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) then 1 else w.hits + 1 end,
      window_start = clock_timestamp()
    where w.window_start <= clock_timestamp() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS})
       or w.window_start + make_interval(secs => ${DELAY_SQL}) <= clock_timestamp()
    returning w.hits`.execute(db);
  if (turn.rows.length > 0) return { blocked: false, retryAfter: 0 };
  // Still waiting: not counted (waiting is not guessing), and told how long is left.
  const {
    rows: [waiting],
  } = await sql<{ retry_after: number }>`
    select ceil(extract(epoch from (w.window_start + make_interval(secs => ${DELAY_SQL}) - clock_timestamp())))::int as retry_after
    from rate_limit_windows w where w.bucket = ${bucket}`.execute(db);
  return {
    blocked: true,
    retryAfter: Math.min(SIGN_IN_MAX_DELAY_SECONDS, Math.max(1, Number(waiting?.retry_after ?? 1))),
  };
}

async function isKnownAddress(em: EntityManager, email: string, clientIp: string): Promise<boolean> {
  const { rows } =
    await sql`select 1 from known_sign_in_addresses where account_hash = ${accountDigest(email)} and address_hash = ${addressDigest(clientIp)}`.execute(
      crossTenantDb(em),
    );
  return rows.length > 0;
}

/**
 * After a successful sign-in: the account starts afresh, the address gets this attempt back (only failures count
 * against an office of administrators behind one address; an attacker's guesses stay counted), and the address is
 * remembered as one the account signs in from.
 */
export async function forgiveSignInAttempt(em: EntityManager, email: string, clientIp: string): Promise<void> {
  const db = crossTenantDb(em);
  await sql`delete from rate_limit_windows where bucket = ${accountBucket(email)}`.execute(db);
  await sql`update rate_limit_windows set hits = greatest(hits - 1, 0) where bucket = ${addressBucket(clientIp)}`.execute(
    db,
  );
  await sql`
    insert into known_sign_in_addresses (account_hash, address_hash, last_signed_in_at) values (${accountDigest(email)}, ${addressDigest(clientIp)}, now())
    on conflict (account_hash, address_hash) do update set last_signed_in_at = now()`.execute(db);
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
