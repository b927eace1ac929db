import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { TDB, TDb } from './tables.ts';
import { TenantScopePlugin } from './tenant-scope.ts';
import { driverOptions, type TDbTimeouts } from './orm.ts';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';
import { AppError } from '../lib/errors.ts';
import type { TReplicaStats } from '../lib/metrics.ts';

/**
 * Replica work must give way fast: a replica that is down refuses at once, one that is frozen or unreachable
 * costs at most the connect timeout (new connection) or the query timeout (open one) before the read falls back.
 */
export const REPLICA_DB_TIMEOUTS = {
  connectTimeoutMs: 1_000,
  statementTimeoutMs: 3_000,
  queryTimeoutMs: 3_500,
  parallelWorkersPerQuery: 0,
} as const;

/** After the replica failed as unavailable, reads go to the primary this long before one read tries it again. */
export const REPLICA_BREAK_MS = 5_000;

/** Where the replica's tenant-scoped reads go while a computation runs on it. */
const replicaScope = new AsyncLocalStorage<{ tenantId: number; db: TDb }>();

/**
 * The tenant's database as seen by code that runs inside `ReadReplica.run` for that tenant: the replica's
 * snapshot there, `primary` everywhere else. Lets a computation written against `ctx.db` run on the replica
 * without being told. Methods are bound to the instance they come from (Kysely keeps private fields).
 */
export function followReplicaScope(primary: TDb, tenantId: number): TDb {
  return new Proxy(primary, {
    get(target, property) {
      const scope = replicaScope.getStore();
      const db = scope?.tenantId === tenantId ? scope.db : target;
      const value: unknown = Reflect.get(db, property, db);
      return typeof value === 'function' ? value.bind(db) : value;
    },
  });
}

/** How many computations ran where (tests, metrics). */
export type { TReplicaStats };

/**
 * A streaming replica of the primary (DATABASE_READ_URL) for reads that can prove, in the replica's own
 * snapshot, that it shows what the caller needs (see `run`). Its connections send no startup parameters: the
 * statement timeout and the parallel-worker setting are `SET LOCAL` in each read's transaction, so it works the
 * same behind a transaction-pooling PgBouncer. A replica that fails as unavailable is left alone for
 * REPLICA_BREAK_MS (reads go to the primary at once), then one read at a time probes it.
 */
export class ReadReplica {
  readonly #url: string;
  readonly #primary: MikroORM;
  readonly #timeouts: TDbTimeouts;
  readonly #breakMs: number;
  #db: Promise<Kysely<TDB>> | undefined;
  #openUntil = 0;
  #probing = false;
  readonly stats: TReplicaStats = { onReplica: 0, onPrimary: 0, failures: 0 };

  constructor(url: string, primary: MikroORM, options: { timeouts?: TDbTimeouts; breakMs?: number } = {}) {
    this.#url = url;
    this.#primary = primary;
    this.#timeouts = options.timeouts ?? REPLICA_DB_TIMEOUTS;
    this.#breakMs = options.breakMs ?? REPLICA_BREAK_MS;
  }

  /**
   * Runs `compute` on the replica — every tenant-scoped query it makes through `followReplicaScope`, in one
   * read-only repeatable-read snapshot — if `shows`, asked first in that same snapshot, says the replica has what
   * the caller needs; otherwise (lagging, down, slow, in conflict with replay) runs it on the primary. Errors of
   * the answer itself (AppError) are the answer; any other failure on the replica is retried on the primary.
   */
  async run<T>(
    tenantId: number,
    shows: (db: TDb) => Promise<boolean>,
    compute: () => Promise<T>,
  ): Promise<{ value: T; onReplica: boolean }> {
    if (this.#admits()) {
      const probe = this.#openUntil !== 0;
      try {
        const answer = await this.#inSnapshot(tenantId, shows, compute);
        this.#openUntil = 0;
        if (answer) {
          this.stats.onReplica++;
          return { value: answer.value, onReplica: true };
        }
      } catch (error) {
        if (error instanceof AppError) throw error;
        this.stats.failures++;
        if (isDatabaseUnavailable(error)) this.#openUntil = Date.now() + this.#breakMs;
      } finally {
        if (probe) this.#probing = false;
      }
    }
    this.stats.onPrimary++;
    return { value: await compute(), onReplica: false };
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    await (await db?.catch(() => undefined))?.destroy();
  }

  async #inSnapshot<T>(
    tenantId: number,
    shows: (db: TDb) => Promise<boolean>,
    compute: () => Promise<T>,
  ): Promise<{ value: T } | undefined> {
    const replica = await this.#connection();
    return replica
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        await localSettings(this.#timeouts).execute(trx);
        const db = trx.withPlugin(new TenantScopePlugin(tenantId));
        if (!(await shows(db))) return undefined;
        return { value: await replicaScope.run({ tenantId, db }, compute) };
      });
  }

  /** Closed after REPLICA_BREAK_MS; then only one read at a time finds out whether the replica is back. */
  #admits(): boolean {
    if (this.#openUntil === 0) return true;
    if (Date.now() < this.#openUntil || this.#probing) return false;
    this.#probing = true;
    return true;
  }

  /** The replica's pool, made on first use with the primary's size and type parsers (answers must not differ). */
  #connection(): Promise<Kysely<TDB>> {
    this.#db ??= this.#open().catch((error: unknown) => {
      this.#db = undefined;
      throw error;
    });
    return this.#db;
  }

  async #open(): Promise<Kysely<TDB>> {
    const primary = (await this.#primary.em.getConnection().getNativeClient()) as pg.Pool;
    const pool = new pg.Pool({
      connectionString: this.#url,
      max: primary.options.max,
      idleTimeoutMillis: primary.options.idleTimeoutMillis,
      types: (primary.options as pg.PoolConfig).types,
      // A plain pool (MikroORM's onPoolCreated hook is not called): a replica that refuses gives way to the primary at once.
      ...driverOptions(this.#timeouts, true),
    });
    // A connection the replica drops must not take the process down (an 'error' event without a listener would);
    // the query in flight fails on its own, and the next read connects anew.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    return new Kysely<TDB>({ dialect: new PostgresDialect({ pool }) });
  }
}

/** The settings a read on the replica runs with, as `SET LOCAL`s (startup parameters would not pass PgBouncer). */
function localSettings(timeouts: TDbTimeouts) {
  const settings: Array<[string, number]> = [['statement_timeout', timeouts.statementTimeoutMs ?? 0]];
  if (timeouts.parallelWorkersPerQuery !== undefined)
    settings.push(['max_parallel_workers_per_gather', timeouts.parallelWorkersPerQuery]);
  return sql`select ${sql.join(settings.map(([name, value]) => sql`set_config(${name}, ${String(value)}, true)`))}`;
}
