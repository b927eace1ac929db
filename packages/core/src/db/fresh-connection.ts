import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';

/** How long a checkout keeps trying by default (processes that set no timeouts: the CLI, tests): a PgBouncer restart. */
export const RECONNECT_FOR_MS = 2_000;

/** The message of a query pg refused to send because the client already knew its connection was gone. */
const NEVER_SENT = /^Client (has encountered a connection error|was closed) and is not queryable/;

/** A statement that opens a transaction: if its connection is lost, the server rolls back whatever it began. */
const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;

/** Timeouts are never retried: the wait would start over. */
const isTimeout = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ETIMEDOUT' || code === '57014' || (typeof message === 'string' && /timeout/i.test(message));
};

/** Connecting failed fast (refused, closed during start-up, server starting or stopping): nothing was sent. */
export function isRefusedConnection(error: unknown): boolean {
  return isDatabaseUnavailable(error) && !isTimeout(error);
}

/**
 * Whether the first statement of a checkout may run again on a fresh connection after `error`: it was provably never
 * sent (pg refused to write it, or the socket refused the bytes: EPIPE), or it only opened a transaction, which the
 * server rolls back with the lost connection. A statement that may have run and done something is never retried.
 */
export function isRetryableBeforeSend(error: unknown, text: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if ((typeof message === 'string' && NEVER_SENT.test(message)) || code === 'EPIPE') return true;
  return TRANSACTION_START.test(text) && isRefusedConnection(error);
}

type TQueryArgs = [unknown, ...unknown[]];

/**
 * Makes `pool` ride through a database that drops or refuses connections for a moment: a checkout retries a refused
 * connect (with backoff, for `reconnectForMs`), and the first statement of a checkout that failed before it was sent
 * (see isRetryableBeforeSend) runs again on a fresh connection. Everything else fails as before (503 upstream).
 */
export function reconnectBeforeSend(pool: pg.Pool, reconnectForMs = RECONNECT_FOR_MS): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const acquire = async (): Promise<pg.PoolClient> => {
    const deadline = Date.now() + reconnectForMs;
    for (let delay = 25; ; delay = Math.min(delay * 2, 400)) {
      try {
        return await connect();
      } catch (error) {
        if (!isRefusedConnection(error) || Date.now() + delay > deadline) throw error;
        await sleep(delay);
      }
    }
  };
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void) => {
    const checkout = acquire().then((client) => firstStatementRetried(client, acquire));
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error)),
      (error: Error) => callback(error),
    );
    return undefined;
  }) as typeof pool.connect;
}

/**
 * The checked-out client, except that its first statement moves to a fresh connection when it failed before it was
 * sent. Kysely and pg-pool only call `query` and `release` (and pg-pool its listeners) on it.
 */
function firstStatementRetried(first: pg.PoolClient, acquire: () => Promise<pg.PoolClient>): pg.PoolClient {
  let current = first;
  let firstDone = false;
  const run = async (args: TQueryArgs): Promise<unknown> => {
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string }).text ?? '');
    for (let attempt = 1; ; attempt++) {
      try {
        return await (current.query as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        if (attempt >= 3 || !isRetryableBeforeSend(error, text)) throw error;
        current.release(error as Error);
        current = await acquire();
      }
    }
  };
  const query = (...args: TQueryArgs) => {
    const submittable = typeof (args[0] as { submit?: unknown }).submit === 'function';
    if (firstDone || submittable) return (current.query as (...a: unknown[]) => unknown)(...args);
    firstDone = true;
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as (error: unknown, result?: unknown) => void) : undefined;
    const result = run(args);
    if (!callback) return result;
    result.then(
      (value) => callback(null, value),
      (error: unknown) => callback(error),
    );
    return undefined;
  };
  return new Proxy(first, {
    get(_target, property) {
      if (property === 'query') return query;
      const value: unknown = Reflect.get(current, property, current);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/**
 * pg-boss's own pool (made by `start()`) rides through the same way: its statements are single autocommit statements,
 * so only a refused connect or a statement never sent is retried, and a job's completion waits out a failover instead
 * of leaving the job to its expiry.
 */
export function reconnectBossBeforeSend(boss: { getDb: () => unknown }, reconnectForMs = RECONNECT_FOR_MS): void {
  const pool = (boss.getDb() as { pool?: pg.Pool }).pool;
  if (pool) reconnectBeforeSend(pool, reconnectForMs);
}
