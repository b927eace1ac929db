import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';

/** How long a checkout keeps trying by default (processes that set no timeouts: the CLI, tests): a PgBouncer restart. */
export const RECONNECT_FOR_MS = 2_000;

/** The message of a query pg refused to send because the client already knew its connection was gone. */
const NEVER_SENT = /^Client (has encountered a connection error|was closed) and is not queryable/;

/** read_only_sql_transaction: the statement reached a standby (a router not yet moved) and was refused there. */
const ON_A_STANDBY = '25006';

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
 * The session ended under the statement (server shut down or crashed, connection cut or reset) — not a timeout, not
 * a statement the server rejected. Whatever the statement's transaction did is rolled back unless its COMMIT was sent.
 */
const isSessionLost = isRefusedConnection;

/**
 * What the first statement of a checkout is, for the rule of what may run again:
 * - `begin`: opens a transaction (the server rolls back a transaction whose connection is lost);
 * - `read`: one SELECT that cannot write (see isReadOnlyStatement), so it is a read in a transaction of its own;
 * - `write`: one INSERT, UPDATE, DELETE, MERGE, or a SELECT/WITH that may write: it runs inside BEGIN … COMMIT;
 * - `other`: anything else (SET, VACUUM, COPY, several statements …): retried only when provably never sent.
 */
export type TStatementKind = 'begin' | 'read' | 'write' | 'other';

/** Words that make a SELECT or WITH possibly write: data-modifying CTEs, row locks, SELECT INTO, and PostgreSQL's
 * own functions with effects beyond the statement (sequences, session locks and settings, notifications, large
 * objects, other backends, replication). Matched as whole words, so `updated_at` is not `update`. */
const WRITING_WORDS =
  /\b(insert|update|delete|merge|truncate|into|lock|for\s+share|for\s+key\s+share|nextval|setval|pg_advisory_lock\w*|pg_advisory_unlock\w*|pg_try_advisory_lock\w*|pg_notify|set_config|pg_terminate_backend|pg_cancel_backend|pg_reload_conf|pg_rotate_logfile|pg_switch_wal|pg_create_\w+|pg_drop_\w+|pg_promote|pg_logical_\w+|pg_replication_\w+|pg_stat_reset\w*|pg_import_system_collations|lo_\w+|dblink\w*|txid_current|pg_current_xact_id)\b/i;

/**
 * The project's own functions (`careers_…`, db/migrations) that a SELECT may call and still write nothing. A function
 * that writes is VOLATILE (PostgreSQL refuses writes in STABLE and IMMUTABLE ones); the list holds the STABLE and
 * IMMUTABLE search helpers, and `careers_events_horizon` (VOLATILE, but all it takes are transaction-scoped advisory
 * locks and a transaction-local setting, gone when its transaction ends). Any other `careers_` function may write.
 * fresh-connection.test.ts checks the list against pg_proc.
 */
export const READ_ONLY_FUNCTIONS = new Set([
  'careers_search_config',
  'careers_search_document',
  'careers_search_is_stop_word',
  'careers_search_lexemes',
  'careers_search_similar_words',
  'careers_search_text',
  'careers_search_word_lexemes',
  'careers_events_horizon',
]);

/** A call of a schema-qualified function (`pgboss.create_queue(…)`, `"public"."f"(…)`): pg-boss's functions write. */
const QUALIFIED_CALL = /("?[a-z_][\w$]*"?)\s*\.\s*"?[a-z_][\w$]*"?\s*\(/i;

/** Comments, so that a comment cannot hide or fake a keyword. */
const withoutComments = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/--[^\n]*/g, ' ')
    .trim();

/**
 * Whether `text` is one SELECT (or WITH … SELECT) that cannot write: no data-modifying word, no row lock, no function
 * with effects (PostgreSQL's listed above, the project's beyond READ_ONLY_FUNCTIONS, any schema-qualified one), a
 * single statement. When in doubt it says no: such a statement is then treated as a write.
 */
export function isReadOnlyStatement(text: string): boolean {
  const sql = withoutComments(text);
  if (!/^(select|with)\b/i.test(sql)) return false;
  if (/;\s*\S/.test(sql)) return false;
  if (WRITING_WORDS.test(sql) || QUALIFIED_CALL.test(sql)) return false;
  for (const [, name] of sql.matchAll(/\b(careers_\w+)\s*\(/gi))
    if (!READ_ONLY_FUNCTIONS.has((name as string).toLowerCase())) return false;
  return true;
}

/**
 * Kinds of the statement texts seen lately: a checkout classifies its first statement, and the regular expressions
 * cost more than a hot read's own work (3 % of an unseen detail's CPU). Texts are templates with parameters, so few.
 */
const knownKinds = new LRUCache<string, TStatementKind>({ max: 2_000 });
/** Longer texts (a bulk INSERT with its rows spelled out) are classified every time rather than held. */
const MAX_REMEMBERED_TEXT = 8_192;

export function statementKind(text: string): TStatementKind {
  if (text.length > MAX_REMEMBERED_TEXT) return classify(text);
  let kind = knownKinds.get(text);
  if (kind === undefined) {
    kind = classify(text);
    knownKinds.set(text, kind);
  }
  return kind;
}

function classify(text: string): TStatementKind {
  const sql = withoutComments(text);
  if (/^(begin|start\s+transaction)\b/i.test(sql)) return 'begin';
  if (/;\s*\S/.test(sql) || !/^(select|with|insert|update|delete|merge)\b/i.test(sql)) return 'other';
  return isReadOnlyStatement(sql) ? 'read' : 'write';
}

/** Errors of a write's COMMIT: it may have committed, so it never runs again. */
const maybeCommitted = new WeakSet<object>();

/**
 * Whether the first statement of a checkout may run again on a fresh connection after `error`. The rule: nothing
 * that may have taken effect runs twice.
 * - Provably never sent (pg refused to write it on a connection it knew was dead, or the socket refused the bytes:
 *   EPIPE): any statement.
 * - BEGIN whose session was lost: the server rolls back a transaction whose connection ends.
 * - A read (isReadOnlyStatement) in a transaction of its own whose session was lost (server shut down, connection
 *   cut): it changed nothing whether it ran or not. Not a timeout (the wait would start over), and not a read inside
 *   a longer transaction: that is not the first statement of its checkout, and only the whole transaction could run
 *   again.
 * - A write, which runs in a transaction of its own (BEGIN, the statement, COMMIT): when the session was lost before
 *   its COMMIT was sent, or a standby refused it (25006), the server rolled it back. A lost COMMIT never runs again.
 */
export function isRetryableBeforeSend(error: unknown, text: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if ((typeof message === 'string' && NEVER_SENT.test(message)) || code === 'EPIPE') return true;
  if (typeof error === 'object' && error !== null && maybeCommitted.has(error)) return false;
  const kind = statementKind(text);
  if (kind === 'write') return isSessionLost(error) || code === ON_A_STANDBY;
  return (kind === 'begin' || kind === 'read') && isSessionLost(error);
}

/**
 * Runs a transaction again when its session was lost under it (the primary shut down for a switchover, a connection
 * cut): the server rolled back whatever it had done, unless the loss hit its COMMIT — so `attempt` must find out, when
 * `again` is true, whether an earlier attempt committed (a row it writes with a key chosen beforehand) and then write
 * nothing. Retried within `windowMs` of the first failure; timeouts and rejected statements are never retried.
 */
export async function retryWhenSessionLost<T>(
  attempt: (again: boolean) => Promise<T>,
  windowMs = RECONNECT_FOR_MS,
): Promise<T> {
  let deadline = 0;
  for (let delay = 25, again = false; ; delay = Math.min(delay * 2, 400), again = true) {
    try {
      return await attempt(again);
    } catch (error) {
      deadline ||= Date.now() + windowMs;
      if (!isSessionLost(error) || Date.now() + delay > deadline) throw error;
      await sleep(delay);
    }
  }
}

type TQueryArgs = [unknown, ...unknown[]];
type TQueryFn = (...a: unknown[]) => Promise<unknown>;

/**
 * Runs one writing statement as BEGIN, the statement, COMMIT on `client`, so that losing the session before the COMMIT
 * provably leaves nothing behind (and it may run again). A statement the server rejects is rolled back and its error
 * passed on unchanged; an error of the COMMIT is marked: it may have committed.
 */
async function inOwnTransaction(client: pg.PoolClient, args: TQueryArgs): Promise<unknown> {
  const query = client.query.bind(client) as TQueryFn;
  await query('begin');
  let result: unknown;
  try {
    result = await query(...args);
  } catch (error) {
    if (!isSessionLost(error)) await query('rollback').catch(() => {});
    throw error;
  }
  try {
    await query('commit');
  } catch (error) {
    if (typeof error === 'object' && error !== null) maybeCommitted.add(error);
    throw error;
  }
  return result;
}

/**
 * Makes `pool` ride through a database that drops or refuses connections for a moment: a checkout retries a refused
 * connect (with backoff, for `reconnectForMs`), and the first statement of a checkout that may run again after its
 * failure (see isRetryableBeforeSend) runs again on a fresh connection. Everything else fails as before (503 upstream).
 */
export function reconnectBeforeSend(pool: pg.Pool, reconnectForMs = RECONNECT_FOR_MS): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const acquire = async (deadline = Date.now() + reconnectForMs): Promise<pg.PoolClient> => {
    for (let delay = 25; ; delay = Math.min(delay * 2, 400)) {
      let client: pg.PoolClient;
      try {
        client = await connect();
      } catch (error) {
        if (!isRefusedConnection(error) || Date.now() + delay > deadline) throw error;
        await sleep(delay);
        continue;
      }
      // A connection that came after the pool began to close is not handed out: Kysely, whose driver forgets the pool
      // when it is destroyed, would fail before taking it and never release it, and the pool's end would wait forever.
      if (pool.ending) {
        client.release();
        throw new Error('the database pool is closing');
      }
      return client;
    }
  };
  pool.connect = ((
    callback?: (error: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void,
  ) => {
    const checkout = acquire().then((client) => firstStatementRetried(client, acquire, reconnectForMs));
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error)),
      (error: Error) => callback(error),
    );
    return undefined;
  }) as typeof pool.connect;
}

const ROLLBACK = /^\s*rollback\s*;?\s*$/i;

/**
 * A ROLLBACK whose session is gone has happened: the server rolls back the transaction of a session that ends. It is
 * answered as done, because Kysely releases a transaction's connection only after its ROLLBACK (or COMMIT) succeeds:
 * a transaction cut by a switchover would otherwise keep its dead connection checked out for good (the pool shrinks,
 * and its end waits forever). pg-pool drops the released connection, which is no longer queryable.
 */
async function rollbackOnLostSession(client: pg.PoolClient, args: TQueryArgs): Promise<unknown> {
  try {
    return await (client.query as TQueryFn)(...args);
  } catch (error) {
    if (!isSessionLost(error)) throw error;
    return { command: 'ROLLBACK', rowCount: null, rows: [], fields: [] };
  }
}

/**
 * The checked-out client, except that its first statement moves to a fresh connection when it may run again (see
 * isRetryableBeforeSend), and a writing first statement runs in a transaction of its own. Kysely and pg-pool only call
 * `query` and `release` (and pg-pool its listeners) on it.
 */
function firstStatementRetried(
  first: pg.PoolClient,
  acquire: (deadline?: number) => Promise<pg.PoolClient>,
  reconnectForMs: number,
): pg.PoolClient {
  let current = first;
  let currentReleased = false;
  let firstDone = false;
  let retrying = false;
  // The caller's 'error' listeners (pg-pool's `pool.query` adds one), relayed from whichever connection is current:
  // while the first statement may still run again, the connection it lost is not the caller's failure.
  const errorListeners = new Map<(error: Error) => void, { once: boolean }>();
  const relay = (error: Error) => {
    if (retrying) return;
    for (const [listener, { once }] of [...errorListeners]) {
      if (once) errorListeners.delete(listener);
      listener(error);
    }
  };
  let relayedFrom: pg.PoolClient | undefined;
  const relayFrom = (client: pg.PoolClient | undefined) => {
    relayedFrom?.removeListener('error', relay);
    relayedFrom = client;
    client?.on('error', relay);
  };
  const run = async (args: TQueryArgs): Promise<unknown> => {
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string }).text ?? '');
    const write = statementKind(text) === 'write';
    retrying = true;
    try {
      // Runs again as long as the failures may be retried, within one reconnect window from the first failure: a
      // PgBouncer that is pausing before its shutdown still takes connections and cuts them again.
      let deadline = 0;
      for (let delay = 25; ; delay = Math.min(delay * 2, 400)) {
        try {
          return write ? await inOwnTransaction(current, args) : await (current.query as TQueryFn)(...args);
        } catch (error) {
          deadline ||= Date.now() + reconnectForMs;
          if (!isRetryableBeforeSend(error, text) || Date.now() + delay > deadline) throw error;
          current.release(error as Error);
          // Released already: if no fresh connection comes, the caller's release must not release it again.
          currentReleased = true;
          await sleep(delay);
          current = await acquire(deadline);
          currentReleased = false;
          if (relayedFrom) relayFrom(current);
        }
      }
    } finally {
      retrying = false;
    }
  };
  const query = (...args: TQueryArgs) => {
    const submittable = typeof (args[0] as { submit?: unknown }).submit === 'function';
    if (firstDone && typeof args[0] === 'string' && ROLLBACK.test(args[0]) && typeof args.at(-1) !== 'function')
      return rollbackOnLostSession(current, args);
    if (firstDone || submittable) return (current.query as (...a: unknown[]) => unknown)(...args);
    firstDone = true;
    const callback =
      typeof args.at(-1) === 'function' ? (args.pop() as (error: unknown, result?: unknown) => void) : undefined;
    const result = run(args);
    if (!callback) return result;
    result.then(
      (value) => callback(null, value),
      (error: unknown) => callback(error),
    );
    return undefined;
  };
  type TEmitter = {
    on: (event: string, listener: (...a: unknown[]) => void) => unknown;
    once: TEmitter['on'];
    removeListener: TEmitter['on'];
  };
  const emitter = () => current as unknown as TEmitter;
  const listen = (once: boolean) => (event: string, listener: (...a: unknown[]) => void) => {
    if (event !== 'error') {
      if (once) emitter().once(event, listener);
      else emitter().on(event, listener);
      return proxy;
    }
    errorListeners.set(listener, { once });
    if (!relayedFrom) relayFrom(current);
    return proxy;
  };
  const unlisten = (event: string, listener: (...a: unknown[]) => void) => {
    if (event !== 'error') {
      emitter().removeListener(event, listener);
      return proxy;
    }
    errorListeners.delete(listener);
    if (errorListeners.size === 0) relayFrom(undefined);
    return proxy;
  };
  const overrides: Record<PropertyKey, unknown> = {
    query,
    on: listen(false),
    addListener: listen(false),
    once: listen(true),
    removeListener: unlisten,
    off: unlisten,
    release: (error?: Error | boolean) => {
      relayFrom(undefined);
      errorListeners.clear();
      if (currentReleased) return;
      return current.release(error);
    },
  };
  const proxy: pg.PoolClient = new Proxy(first, {
    get(_target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property];
      const value: unknown = Reflect.get(current, property, current);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
  return proxy;
}

/**
 * pg-boss's own pool (made by `start()`) rides through the same way: a refused connect, a statement never sent, a read
 * or a write whose session was lost before its COMMIT run again, so a job's fetch, heartbeat and completion wait out a
 * failover instead of leaving the job to its expiry.
 */
export function reconnectBossBeforeSend(boss: { getDb: () => unknown }, reconnectForMs = RECONNECT_FOR_MS): void {
  const pool = (boss.getDb() as { pool?: pg.Pool }).pool;
  if (pool) reconnectBeforeSend(pool, reconnectForMs);
}
