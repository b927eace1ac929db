import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@careers/core';
import { PG_BIN } from './binaries.ts';
import { runAsServiceUser, serviceSubfolder } from './os-user.ts';
import { startServerProcess, waitUntil, type TServerProcess } from './server-process.ts';

export const DATABASE = 'careers';
const USER = 'postgres';

/** One PostgreSQL server (primary or streaming replica) on 127.0.0.1. */
export type TPostgresServer = {
  port: number;
  dataDir: string;
  /** Connection string of the application database on this server, bypassing PgBouncer. */
  url: string;
  start: () => Promise<void>;
  /** Fast shutdown (SIGINT: active sessions are ended, nothing is lost). */
  stop: () => Promise<void>;
  running: () => boolean;
  /** Runs SQL (several statements allowed) on the application database, as `postgres`. */
  sql: (text: string) => Promise<Record<string, unknown>[]>;
};

/** Throw-away settings: nothing is synced to disk, which is fine for a cluster that lives for one test run. */
const SETTINGS = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '200',
  shared_buffers: '128MB',
  wal_level: 'replica',
  max_wal_senders: '4',
  hot_standby: 'on',
  // A replica answers reads while it replays: a long read must not hold replay, nor be cancelled by it at once.
  max_standby_streaming_delay: '5s',
  hot_standby_feedback: 'on',
};

function postgresServer(
  dataDir: string,
  port: number,
  root: string,
  name: string,
  settings: Record<string, string> = {},
): TPostgresServer {
  let server: TServerProcess | undefined;
  const flags = Object.entries({ ...SETTINGS, ...settings, port: String(port) }).flatMap(([key, value]) => [
    '-c',
    `${key}=${value}`,
  ]);
  return {
    port,
    dataDir,
    url: `postgres://${USER}@127.0.0.1:${port}/${DATABASE}`,
    running: () => server?.running() ?? false,
    sql: (text) => runSql(`postgres://${USER}@127.0.0.1:${port}/${DATABASE}`, text),
    start: async () => {
      server = startServerProcess(join(PG_BIN, 'postgres'), ['-D', dataDir, ...flags], join(root, `${name}.log`));
      const started = server;
      await waitUntil(`PostgreSQL ${name} on port ${port}`, started, () => accepts(port));
    },
    stop: async () => {
      await server?.stop('SIGINT');
    },
  };
}

/** Whether the server accepts a session on its `postgres` database. */
async function accepts(port: number): Promise<boolean> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: USER,
    database: 'postgres',
    connectionTimeoutMillis: 1_000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A new primary: initdb (trust on 127.0.0.1, replication allowed: initdb's default pg_hba), started, with the
 * application database created.
 */
export async function startPrimary(root: string): Promise<TPostgresServer> {
  const dataDir = serviceSubfolder(root, 'primary');
  await runAsServiceUser(join(PG_BIN, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    USER,
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const primary = postgresServer(dataDir, await freePort(), root, 'primary');
  await primary.start();
  const admin = new pg.Client({ host: '127.0.0.1', port: primary.port, user: USER, database: 'postgres' });
  await admin.connect();
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
  return primary;
}

/** A streaming replica of `primary`: pg_basebackup -R --checkpoint=fast (a spread checkpoint would take minutes; -R writes standby.signal and primary_conninfo), started. */
export async function startReplica(root: string, primary: TPostgresServer, applyDelayMs = 0): Promise<TPostgresServer> {
  const dataDir = join(root, 'replica');
  await runAsServiceUser(join(PG_BIN, 'pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    USER,
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  const replica = postgresServer(dataDir, await freePort(), root, 'replica', {
    recovery_min_apply_delay: `${applyDelayMs}ms`,
  });
  await replica.start();
  return replica;
}

/** Waits until the replica has replayed everything the primary has written so far. */
export async function waitForReplay(
  primary: TPostgresServer,
  replica: TPostgresServer,
  timeoutMs = 30_000,
): Promise<void> {
  const target = (await oneValue(primary.url, 'select pg_current_wal_lsn()::text as lsn')) as string;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const caughtUp = await oneValue(replica.url, `select pg_last_wal_replay_lsn() >= '${target}'::pg_lsn as done`);
    if (caughtUp === true) return;
    if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${target} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function oneValue(url: string, sql: string): Promise<unknown> {
  const [row] = await runSql(url, sql);
  return Object.values(row ?? {})[0];
}

/** Runs SQL (several statements allowed) on its own connection; the rows of the last statement. */
export async function runSql(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const result = await client.query(text);
    return (Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows) as Record<string, unknown>[];
  } finally {
    await client.end().catch(() => {});
  }
}
