import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@careers/core';
import { writePgBouncerConfig } from '@careers/core/testing';
import { PGBOUNCER } from './binaries.ts';
import { startServerProcess, waitUntil, type TServerProcess } from './server-process.ts';

export type TPgBouncer = {
  port: number;
  /** `postgres://ROLE@127.0.0.1:port/NAME` for one of the configured databases (role `postgres` by default). */
  urlOf: (database: string, role?: string) => string;
  start: () => Promise<void>;
  /** SIGINT: immediate shutdown (every client connection is cut). */
  stop: () => Promise<void>;
  /** A command on the admin console (`SHOW POOLS`, `KILL db`, `RESUME db` …). */
  admin: (command: string) => Promise<Record<string, unknown>[]>;
};

export type TPgBouncerDatabase = { name: string; port: number; dbname?: string };

/** Server connections per (database, user) pair: well below PostgreSQL's max_connections of 200. */
export const POOL_SIZE = 20;

/**
 * Debian's PgBouncer 1.18 in transaction pooling, as production runs it: 1.18 has no prepared-statement
 * support (that came in 1.21), so only unnamed statements work, and nothing of a session survives a transaction.
 * `* =` forwards any other database name to `fallbackPort` (the API test suite creates a database per file).
 */
export async function startPgBouncer(
  root: string,
  databases: TPgBouncerDatabase[],
  fallbackPort: number,
  roles: string[] = [],
): Promise<TPgBouncer> {
  const port = await freePort();
  const { ini } = writePgBouncerConfig(root, { port, databases, fallbackPort, roles, poolSize: POOL_SIZE });
  const logFile = join(root, 'pgbouncer.log');
  let server: TServerProcess | undefined;
  const urlOf = (database: string, role = 'postgres') => `postgres://${role}@127.0.0.1:${port}/${database}`;
  const admin = async (command: string) => {
    const client = new pg.Client({ connectionString: urlOf('pgbouncer'), connectionTimeoutMillis: 1_000 });
    await client.connect();
    try {
      // The admin console speaks only the simple query protocol: no parameters.
      return (await client.query(command)).rows as Record<string, unknown>[];
    } finally {
      await client.end().catch(() => {});
    }
  };
  return {
    port,
    urlOf,
    admin,
    start: async () => {
      server = startServerProcess(PGBOUNCER, [ini], logFile);
      const started = server;
      await waitUntil(`PgBouncer on port ${port}`, started, async () => (await admin('SHOW VERSION')).length > 0);
    },
    stop: async () => {
      await server?.stop('SIGINT');
    },
  };
}
