import { MikroORM, defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { fileURLToPath } from 'node:url';
import { entities } from '../modules/entities.ts';
import type { TPoolStats } from '../lib/metrics.ts';
import { coreEnv } from '../env.ts';
import type pg from 'pg';
import { prepareRegisteredStatements } from './fast-path/prepared-statements.ts';
import { reconnectBeforeSend } from './fresh-connection.ts';

export const migrationsPath = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * How long database work may take before it fails instead of hanging. Off by default (migrations and imports
 * may run long statements); serving processes opt in.
 */
export type TDbTimeouts = {
  /** Waiting for a connection, new or from a full pool. */
  connectTimeoutMs?: number;
  /** Server side: PostgreSQL cancels a statement running longer (57014). */
  statementTimeoutMs?: number;
  /** Client side: a query without an answer (server frozen, network gone) fails after this. */
  queryTimeoutMs?: number;
  /**
   * PostgreSQL's `max_parallel_workers_per_gather` for the process's sessions. Serving processes use 0: under
   * concurrent requests, parallel workers compete with the other requests for the same cores, and starting them
   * costs more than the short scans of an API (a filtered vacancy page: 16 ms serial, 185 ms with two workers).
   */
  parallelWorkersPerQuery?: number;
  /**
   * How long a checkout keeps retrying a connection that is refused or closed at once (PgBouncer restarting, no
   * primary behind the router during a failover or switchover) before the caller sees the failure (fresh-connection.ts).
   */
  reconnectForMs?: number;
};

/** A database that is down must not hold a caller: connecting never waits longer than this by default. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/**
 * API requests: a stopped or unreachable database answers 503 well within 5 s; a primary that is away for a
 * switchover (measured 2–4 s with Patroni) is waited for.
 */
export const API_DB_TIMEOUTS = {
  connectTimeoutMs: 3_000,
  statementTimeoutMs: 3_000,
  queryTimeoutMs: 3_500,
  parallelWorkersPerQuery: 0,
  reconnectForMs: 3_000,
} as const;

/** Resume jobs: nobody waits on them, but a frozen database must not hold a job until its expiry; a failover is waited out. */
export const WORKER_DB_TIMEOUTS = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 60_000,
  queryTimeoutMs: 65_000,
  reconnectForMs: 30_000,
} as const;

/**
 * node-postgres options of a pool. The server-side settings travel as startup parameters, which a
 * transaction-pooling PgBouncer refuses ("unsupported startup parameter"): behind one (DB_TRANSACTION_POOLING)
 * they are left out and the role carries them (`ALTER ROLE … SET`); the client-side query timeout still holds.
 * A `SET` on connect is no substitute there: it would stick to whichever server connection ran it.
 */
export function driverOptions(
  timeouts: TDbTimeouts,
  transactionPooling = coreEnv().DB_TRANSACTION_POOLING,
): Record<string, unknown> {
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // Notices a peer that vanished without closing the connection.
    keepAlive: true,
    ...(timeouts.queryTimeoutMs ? { query_timeout: timeouts.queryTimeoutMs } : {}),
    ...(transactionPooling ? {} : sessionSettings(timeouts)),
    // MikroORM's hook for the pool it makes: checkouts ride through a restart of PgBouncer or a failover. Behind a
    // transaction-pooling PgBouncer a prepared statement's name would not follow the next transaction to its server
    // connection.
    onPoolCreated: (pool: pg.Pool) => {
      reconnectBeforeSend(pool, timeouts.reconnectForMs);
      if (!transactionPooling) prepareRegisteredStatements(pool);
    },
  };
}

function sessionSettings(timeouts: TDbTimeouts): Record<string, unknown> {
  return {
    ...(timeouts.statementTimeoutMs ? { statement_timeout: timeouts.statementTimeoutMs } : {}),
    ...(timeouts.parallelWorkersPerQuery !== undefined
      ? { options: `-c max_parallel_workers_per_gather=${timeouts.parallelWorkersPerQuery}` }
      : {}),
  };
}

export function ormConfig(databaseUrl: string, overrides: Partial<Options> = {}, timeouts: TDbTimeouts = {}) {
  return defineConfig({
    clientUrl: databaseUrl,
    entities: [...entities],
    extensions: [Migrator],
    debug: false,
    allowGlobalContext: false,
    // The database is created by whoever provisions it (embedded.ts, an operator), never by a connecting process; and
    // MikroORM's check on first connect runs beside the first caller's work, not awaited by it or by `close()`.
    ensureDatabase: false,
    pool: { min: 0, max: 10 },
    driverOptions: driverOptions(timeouts),
    migrations: {
      path: migrationsPath,
      pathTs: migrationsPath,
      glob: '!(*.d).ts',
      tableName: 'mikro_orm_migrations',
      transactional: true,
      silent: true,
      allOrNothing: true,
      emit: 'ts',
      // No schema snapshot file: `migration:create` diffs the entities against a scratch database migrated to the
      // committed migrations, and running migrations (start, tests, benchmarks) never writes into the source tree.
      snapshot: false,
    },
    ...overrides,
  });
}

export type TOrm = MikroORM;

export async function openOrm(
  databaseUrl: string,
  overrides: Partial<Options> = {},
  timeouts: TDbTimeouts = {},
): Promise<MikroORM> {
  return MikroORM.init(ormConfig(databaseUrl, overrides, timeouts));
}

/** The ORM's pg pool (for its usage numbers), or undefined when it cannot be reached. */
export async function poolOf(orm: MikroORM): Promise<TPoolStats | undefined> {
  try {
    return (await orm.em.getConnection().getNativeClient()) as TPoolStats;
  } catch {
    return undefined;
  }
}
