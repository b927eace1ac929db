import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@careers/core';
import { ETCD, HAPROXY, PATRONI, PG_BIN } from './binaries.ts';
import { serviceSubfolder } from './os-user.ts';
import { DATABASE, runSql } from './postgres.ts';
import { startServerProcess, waitUntil, type TServerProcess } from './server-process.ts';

/**
 * Patroni's timings: the leader key lives 10 s, each node runs its loop every second, and with `master_start_timeout: 0`
 * a primary whose PostgreSQL crashed is failed over at once (to the synchronous standby, so nothing acknowledged is
 * lost) instead of being restarted in place. `synchronous_mode_strict` stays off: a lone survivor keeps taking writes.
 */
const DCS = {
  ttl: 10,
  loop_wait: 1,
  retry_timeout: 4,
  maximum_lag_on_failover: 1048576,
  master_start_timeout: 0,
  synchronous_mode: true,
};

/** One PostgreSQL node under Patroni. */
export type TPatroniNode = {
  name: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
  /** `postgres://postgres@127.0.0.1:pgPort/careers`, bypassing HAProxy. */
  url: string;
  /** Patroni's view of the node (`GET /patroni`): role, state, timeline … */
  status: () => Promise<Record<string, unknown> | undefined>;
  /** SIGKILL to the postmaster only (Patroni keeps running and sees the crash). */
  killPostgres: () => void;
  startPatroni: () => Promise<void>;
  stopPatroni: () => Promise<void>;
};

export type TPatroniCluster = {
  nodes: TPatroniNode[];
  /** HAProxy's port: it routes to whichever node Patroni's REST API says is the primary. */
  routerPort: number;
  /** A connection string through HAProxy (role `postgres` by default). */
  urlOf: (role?: string) => string;
  /** The node that is primary now (waits until there is one, up to `timeoutMs`). */
  leader: (timeoutMs?: number) => Promise<TPatroniNode>;
  /** Waits until one node is primary and the other a streaming synchronous standby. */
  healthy: (timeoutMs?: number) => Promise<{ leader: TPatroniNode; standby: TPatroniNode }>;
  /** A planned switchover to `candidate` through Patroni's REST API. */
  switchover: (leader: TPatroniNode, candidate: TPatroniNode) => Promise<void>;
  /** SQL on the current primary (directly, as `postgres`). */
  sql: (text: string) => Promise<Record<string, unknown>[]>;
  stop: () => Promise<void>;
};

/** etcd 3.4 (one member), the distributed configuration store Patroni keeps its leader key in. */
async function startEtcd(root: string): Promise<{ port: number; server: TServerProcess }> {
  const [port, peerPort] = [await freePort(), await freePort()];
  const dir = serviceSubfolder(root, 'etcd');
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    ['--name', 'etcd1'],
    ['--data-dir', join(dir, 'data')],
    ['--listen-client-urls', `http://127.0.0.1:${port}`],
    ['--advertise-client-urls', `http://127.0.0.1:${port}`],
    ['--listen-peer-urls', peer],
    ['--initial-advertise-peer-urls', peer],
    ['--initial-cluster', `etcd1=${peer}`],
    ['--unsafe-no-fsync'],
  ].flat();
  const server = startServerProcess(ETCD, args, join(root, 'etcd.log'));
  await waitUntil(`etcd on port ${port}`, server, async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok);
  return { port, server };
}

function patroniConfig(root: string, name: string, ports: { pg: number; rest: number; etcd: number }): string {
  const dir = join(root, name);
  const yaml = {
    scope: 'careers',
    name,
    restapi: { listen: `127.0.0.1:${ports.rest}`, connect_address: `127.0.0.1:${ports.rest}` },
    etcd3: { hosts: [`127.0.0.1:${ports.etcd}`] },
    bootstrap: {
      dcs: {
        ...DCS,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          // pg_rewind needs full_page_writes and wal_log_hints; acknowledged writes need synchronous_commit on.
          parameters: {
            wal_log_hints: 'on',
            full_page_writes: 'on',
            synchronous_commit: 'on',
            max_connections: 200,
            max_wal_senders: 5,
            max_replication_slots: 5,
            hot_standby: 'on',
            wal_keep_size: '128MB',
          },
        },
      },
      // --no-sync: initdb's final "syncing data to disk" flushes the whole new cluster, which waits behind every other
      // writer of a shared disk; the servers run with fsync off anyway (throw-away disks).
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, 'no-sync'],
    },
    postgresql: {
      listen: `127.0.0.1:${ports.pg}`,
      connect_address: `127.0.0.1:${ports.pg}`,
      data_dir: join(dir, 'data'),
      bin_dir: PG_BIN,
      pgpass: join(dir, 'pgpass'),
      // Trust on loopback: Patroni still wants names for its superuser, replication and rewind connections.
      authentication: {
        superuser: { username: 'postgres', password: 'postgres' },
        replication: { username: 'postgres', password: 'postgres' },
        rewind: { username: 'postgres', password: 'postgres' },
      },
      pg_hba: ['host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust', 'local all all trust'],
      // Throw-away disks: a killed process loses nothing the OS already has (fsync matters only when the machine dies).
      parameters: { unix_socket_directories: dir, fsync: 'off', shared_buffers: '128MB' },
    },
  };
  const file = join(dir, 'patroni.yml');
  // JSON is YAML: Patroni reads it as its configuration file.
  writeFileSync(file, JSON.stringify(yaml, null, 2));
  return file;
}

async function patroniNode(root: string, name: string, etcdPort: number): Promise<TPatroniNode> {
  const [pgPort, restPort] = [await freePort(), await freePort()];
  serviceSubfolder(root, name);
  const config = patroniConfig(root, name, { pg: pgPort, rest: restPort, etcd: etcdPort });
  const dataDir = join(root, name, 'data');
  let patroni: TServerProcess | undefined;
  const status = async () => {
    try {
      const response = await fetch(`http://127.0.0.1:${restPort}/patroni`, { signal: AbortSignal.timeout(1_000) });
      return (await response.json()) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  return {
    name,
    pgPort,
    restPort,
    dataDir,
    url: `postgres://postgres@127.0.0.1:${pgPort}/${DATABASE}`,
    status,
    killPostgres: () => {
      const pid = postmasterPid(dataDir);
      if (pid) process.kill(pid, 'SIGKILL');
    },
    startPatroni: async () => {
      const logFile = join(root, `${name}.log`);
      patroni = startServerProcess(PATRONI, [config], logFile);
      const started = patroni;
      await waitUntil(
        `Patroni ${name}`,
        started,
        async () => {
          // A bootstrap that failed (its PostgreSQL could not start: a port taken meanwhile, …) is retried by Patroni
          // forever; say so at once, with its log, instead of waiting out the limit.
          const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
          const failed = BOOTSTRAP_FAILED.exec(log);
          if (failed) throw new BootstrapFailed(`Patroni ${name}: ${failed[0]}:\n${started.logTail()}`);
          return (await status())?.state === 'running';
        },
        90_000,
      );
    },
    stopPatroni: async () => {
      await patroni?.stop('SIGTERM', 30_000);
      // A Patroni that had to be killed leaves its PostgreSQL behind.
      const pid = postmasterPid(dataDir);
      if (pid) process.kill(pid, 'SIGKILL');
    },
  };
}

/** Lines of Patroni's (and its PostgreSQL's) log that mean the bootstrap failed and will only be tried again. */
const BOOTSTRAP_FAILED =
  /removing initialize key after failed attempt to bootstrap|could not bind IPv4 address|could not create any TCP\/IP sockets|FATAL: +(lock file|data directory)[^\n]*|initdb: error[^\n]*/;

/** A node's bootstrap failed (see BOOTSTRAP_FAILED) or did not finish in time: worth one more try on fresh ports. */
export class BootstrapFailed extends Error {
  override name = 'BootstrapFailed';
}

function postmasterPid(dataDir: string): number | undefined {
  const file = join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** HAProxy in TCP mode: a node takes connections while Patroni's `GET /primary` answers 200; a node marked down has its sessions cut. */
async function startHaproxy(root: string, nodes: TPatroniNode[]): Promise<{ port: number; server: TServerProcess }> {
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode tcp',
    '  timeout connect 1s',
    // No retries: HAProxy waits a second before retrying a server, longer than a client should wait to learn that
    // nothing is behind it; the units retry a closed connection themselves.
    '  retries 0',
    '  timeout client 30m',
    '  timeout server 30m',
    '  timeout check 1s',
    'listen careers_primary',
    `  bind 127.0.0.1:${port}`,
    '  option httpchk OPTIONS /primary',
    '  http-check expect status 200',
    '  default-server inter 200ms fastinter 200ms downinter 200ms fall 2 rise 1 on-marked-down shutdown-sessions',
    ...nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.pgPort} check port ${node.restPort}`),
  ].join('\n');
  const file = join(root, 'haproxy.cfg');
  writeFileSync(file, `${config}\n`);
  const server = startServerProcess(HAPROXY, ['-db', '-f', file], join(root, 'haproxy.log'));
  return { port, server };
}

/**
 * Patroni on two nodes (a primary and a synchronous standby, `synchronous_mode`), etcd as its store, and HAProxy in
 * front routing to the leader, all in `root`. The first node bootstraps (initdb), the second clones it.
 */
export async function startPatroniCluster(root: string, stops: Array<() => Promise<void>>): Promise<TPatroniCluster> {
  const etcd = await startEtcd(root);
  stops.push(() => etcd.server.stop('SIGTERM'));
  const nodes = [await patroniNode(root, 'node1', etcd.port), await patroniNode(root, 'node2', etcd.port)];
  stops.push(async () => {
    await Promise.all(nodes.map((node) => node.stopPatroni()));
  });
  for (const node of nodes) await node.startPatroni();
  const haproxy = await startHaproxy(root, nodes);
  stops.push(() => haproxy.server.stop('SIGTERM'));

  const roleOf = async (node: TPatroniNode) => (await node.status())?.role;
  const leader = async (timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const node of nodes)
        if ((await roleOf(node)) === 'master' || (await roleOf(node)) === 'primary') return node;
      if (Date.now() > deadline) throw new Error(`no Patroni node became primary within ${timeoutMs} ms`);
      await sleep(200);
    }
  };
  const healthy = async (timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const primary = await leader(timeoutMs);
      const standby = nodes.find((node) => node !== primary) as TPatroniNode;
      const sync = await fetch(`http://127.0.0.1:${standby.restPort}/sync`, {
        signal: AbortSignal.timeout(1_000),
      }).then(
        (r) => r.ok,
        () => false,
      );
      const routed = await runSql(
        `postgres://postgres@127.0.0.1:${haproxy.port}/postgres`,
        'select not pg_is_in_recovery() as writable',
      ).then(
        (rows) => rows[0]?.writable === true,
        () => false,
      );
      if (sync && routed) return { leader: primary, standby };
      if (Date.now() > deadline)
        throw new Error(`the Patroni cluster was not healthy (primary + synchronous standby) within ${timeoutMs} ms`);
      await sleep(250);
    }
  };
  await healthy();
  const first = await leader();
  await runSql(`postgres://postgres@127.0.0.1:${first.pgPort}/postgres`, `create database ${DATABASE}`);
  return {
    nodes,
    routerPort: haproxy.port,
    urlOf: (role = 'postgres') => `postgres://${role}@127.0.0.1:${haproxy.port}/${DATABASE}`,
    leader,
    healthy,
    switchover: async (from, to) => {
      const response = await fetch(`http://127.0.0.1:${from.restPort}/switchover`, {
        method: 'POST',
        body: JSON.stringify({ leader: from.name, candidate: to.name }),
      });
      if (!response.ok)
        throw new Error(`switchover ${from.name} → ${to.name}: ${response.status} ${await response.text()}`);
    },
    sql: async (text) => runSql((await leader()).url, text),
    stop: async () => {},
  };
}
