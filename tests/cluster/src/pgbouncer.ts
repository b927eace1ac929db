import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@careers/core';
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
export async function startPgBouncer(root: string, databases: TPgBouncerDatabase[], fallbackPort: number, roles: string[] = []): Promise<TPgBouncer> {
  const port = await freePort();
  const entries = databases.map(({ name, port: target, dbname }) => `${name} = host=127.0.0.1 port=${target} dbname=${dbname ?? name}`);
  const ini = join(root, 'pgbouncer.ini');
  writeFileSync(join(root, 'userlist.txt'), ['postgres', ...roles].map((role) => `"${role}" ""\n`).join(''));
  writeFileSync(
    ini,
    [
      '[databases]',
      ...entries,
      `* = host=127.0.0.1 port=${fallbackPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(root, 'userlist.txt')}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      `default_pool_size = ${POOL_SIZE}`,
      'max_client_conn = 1000',
      // A server that went away is noticed on the next use rather than handed out again.
      'server_check_delay = 0',
      'server_login_retry = 1',
      'ignore_startup_parameters = extra_float_digits',
      `pidfile = ${join(root, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
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
