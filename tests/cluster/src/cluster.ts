import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { API_DB_TIMEOUTS } from '@careers/core';
import { WORKER_DB_TIMEOUTS } from '@careers/core/worker';
import { join } from 'node:path';
import { serviceFolder } from './os-user.ts';
import { startPatroniCluster, type TPatroniCluster } from './patroni.ts';
import { startPgBouncer, type TPgBouncer } from './pgbouncer.ts';
import { DATABASE, startPrimary, startReplica, waitForReplay, type TPostgresServer } from './postgres.ts';
import { careers, startAdmin, startApi, startWorker, type TUnit, type TUnitEnv } from './units.ts';

/**
 * Behind a transaction-pooling PgBouncer no session settings reach the server with the connection
 * (DB_TRANSACTION_POOLING): each unit logs in as a role that carries them, as docs/operations.md advises. The API's
 * settings are API_DB_TIMEOUTS (statement timeout, no parallel workers), the worker's WORKER_DB_TIMEOUTS. Both roles
 * act as the owner of the schema (member of `postgres`).
 */
const UNIT_ROLES = ['careers_api', 'careers_worker'];
const UNIT_ROLES_SQL = `
  create role careers_api login in role postgres;
  alter role careers_api set statement_timeout = '${API_DB_TIMEOUTS.statementTimeoutMs}ms';
  alter role careers_api set max_parallel_workers_per_gather = ${API_DB_TIMEOUTS.parallelWorkersPerQuery};
  create role careers_worker login in role postgres;
  alter role careers_worker set statement_timeout = '${WORKER_DB_TIMEOUTS.statementTimeoutMs}ms';
`;

/** The generated tenant (`careers demo-document --large`) and its all-scopes key. */
export const TENANT = 'bench';
export { LARGE_API_KEY as TENANT_KEY } from '@careers/core/bench';
const WRITER_SCOPES = [
  'vacancies:read',
  'vacancies:write',
  'applications:write',
  'candidates:read',
  'candidates:write',
];
/** A dashboard user of the generated tenant (its own admin has no password), for the admin process of the harness. */
export const ADMIN_USER = { email: 'cluster-admin@bench.example', password: 'cluster-admin-correct-horse' };

/** The name under which PgBouncer serves the replica (DATABASE_READ_URL). */
export const REPLICA_DATABASE = 'careers_replica';

export type TCluster = {
  primary: TPostgresServer;
  replica?: TPostgresServer;
  bouncer: TPgBouncer;
  /** The environment of the API processes and of the workers: their database URLs through PgBouncer. */
  apiEnv: TUnitEnv;
  workerEnv: TUnitEnv;
  /** Keys with the write scopes, one rate-limit window each. */
  writerKeys: string[];
  /** Waits until the replica has replayed everything written so far. */
  replicaCaughtUp: () => Promise<void>;
  stop: () => Promise<void>;
};

export type TClusterOptions = {
  /** A streaming replica next to the primary (default true). */
  replica?: boolean;
  /** Vacancies of the generated tenant (`careers demo-document --large N`); without it, an empty server. */
  vacancies?: number;
  /** Connections per unit in its pool (DB_POOL_SIZE). */
  poolSize?: number;
  /** The replica applies commits this late (recovery_min_apply_delay): a replica that is always behind. */
  replicaApplyDelayMs?: number;
  /** API keys to create for writers (`careers keys create`), besides the tenant's all-scopes key. */
  writerKeys?: number;
};

/** A temp folder for a cluster's services and the stops of what was started in it, run in reverse, then the folder removed. */
function serviceStack(prefix: string): { root: string; stops: Array<() => Promise<void>>; stop: () => Promise<void> } {
  const root = serviceFolder(prefix);
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => {});
    stops.length = 0;
    rmSync(root, { recursive: true, force: true });
  };
  return { root, stops, stop };
}

/**
 * A primary (PostgreSQL 15), optionally a streaming replica, and PgBouncer in transaction pooling in front of
 * both. The schema is applied and a generated tenant imported the way operators do it: `careers migrate` and
 * `careers import` against the primary, before the replica is cloned from it. Everything lives in one temp
 * folder, removed on stop; a failed start stops what it started.
 */
export async function startCluster(options: TClusterOptions): Promise<TCluster> {
  const { root, stops, stop } = serviceStack('careers-cluster-');
  try {
    const primary = await startPrimary(root);
    stops.push(primary.stop);
    const writerKeys = await prepareDatabase(root, primary.url, primary.sql, options);

    let replica: TPostgresServer | undefined;
    if (options.replica ?? true) {
      replica = await startReplica(root, primary, options.replicaApplyDelayMs ?? 0);
      stops.push(replica.stop);
    }
    const bouncer = await startPgBouncer(
      root,
      [
        { name: DATABASE, port: primary.port },
        ...(replica ? [{ name: REPLICA_DATABASE, port: replica.port, dbname: DATABASE }] : []),
      ],
      primary.port,
      UNIT_ROLES,
    );
    await bouncer.start();
    stops.push(bouncer.stop);

    const unitEnv = (role: string): TUnitEnv => ({
      DATABASE_URL: bouncer.urlOf(DATABASE, role),
      ...(replica ? { DATABASE_READ_URL: bouncer.urlOf(REPLICA_DATABASE, role) } : {}),
      DB_TRANSACTION_POOLING: '1',
      DB_POOL_SIZE: String(options.poolSize ?? 5),
    });
    return {
      primary,
      replica,
      bouncer,
      apiEnv: unitEnv('careers_api'),
      workerEnv: unitEnv('careers_worker'),
      writerKeys,
      replicaCaughtUp: async () => {
        if (replica) await waitForReplay(primary, replica);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The schema, a generated tenant and the writer keys, made the way operators do it (`careers migrate`, `careers import`,
 * `careers keys create` against the primary directly), and the units' roles. Returns the writer keys.
 */
async function prepareDatabase(
  root: string,
  url: string,
  sql: (text: string) => Promise<unknown>,
  options: Pick<TClusterOptions, 'vacancies' | 'writerKeys'>,
): Promise<string[]> {
  const writerKeys = Array.from(
    { length: options.writerKeys ?? 0 },
    (_, i) => `ck_cluster_writer_${i + 1}_${randomBytes(16).toString('hex')}`,
  );
  if (options.vacancies !== undefined) {
    const document = join(root, 'tenant.json');
    await careers(['demo-document', '--large', String(options.vacancies), '--seed', '7', '--out', document], {});
    // The writer keys travel in the imported document (one import instead of a `careers keys create` per key).
    const tenants = (
      JSON.parse(readFileSync(document, 'utf8')) as { tenants: Array<{ api_keys: unknown[]; users?: unknown[] }> }
    ).tenants;
    tenants[0]?.api_keys.push(
      ...writerKeys.map((key, i) => ({
        id: 2_000_001 + i,
        name: `writer-${i + 1}`,
        key,
        scopes: WRITER_SCOPES,
        revoked: false,
      })),
    );
    if (tenants[0])
      tenants[0].users = [
        ...(tenants[0].users ?? []),
        { id: 3_000_001, name: 'Cluster Admin', role: 'admin', ...ADMIN_USER },
      ];
    writeFileSync(document, JSON.stringify({ tenants }));
    await careers(['migrate'], { DATABASE_URL: url });
    await careers(['import', document], { DATABASE_URL: url });
  } else if (writerKeys.length > 0) {
    throw new Error('writer keys come with a generated tenant (vacancies)');
  }
  await sql(UNIT_ROLES_SQL);
  return writerKeys;
}

export type TFailoverCluster = Pick<TCluster, 'apiEnv' | 'workerEnv' | 'writerKeys' | 'stop'> & {
  patroni: TPatroniCluster;
  root: string;
};

/**
 * Patroni (a primary and a synchronous standby, etcd, HAProxy routing to the leader; see patroni.ts) with the schema
 * and a generated tenant. The units connect through HAProxy, each as its own role, with session connections
 * (no PgBouncer): their timeouts travel as startup parameters.
 */
export async function startFailoverCluster(
  options: Pick<TClusterOptions, 'vacancies' | 'writerKeys' | 'poolSize'>,
): Promise<TFailoverCluster> {
  const { root, stops, stop } = serviceStack('careers-patroni-');
  try {
    const patroni = await startPatroniClusterRetried(root, stops);
    const writerKeys = await prepareDatabase(root, patroni.urlOf(), patroni.sql, options);
    const unitEnv = (role: string): TUnitEnv => ({
      DATABASE_URL: patroni.urlOf(role),
      DB_POOL_SIZE: String(options.poolSize ?? 5),
    });
    return { patroni, root, apiEnv: unitEnv('careers_api'), workerEnv: unitEnv('careers_worker'), writerKeys, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Starts the Patroni cluster; when the first bootstrap fails or stalls (see BootstrapFailed), starts it once more from
 * nothing on fresh ports, keeping the first attempt's logs beside (`*.log.attempt-1`) and saying so on stderr.
 */
async function startPatroniClusterRetried(root: string, stops: Array<() => Promise<void>>): Promise<TPatroniCluster> {
  try {
    return await startPatroniCluster(root, stops);
  } catch (error) {
    const stalled =
      error instanceof Error &&
      (error.name === 'BootstrapFailed' || /^Patroni node\d (was not ready|exited)/.test(error.message));
    if (!stalled) throw error;
    console.warn(
      `cluster: the Patroni bootstrap failed, starting it once more on fresh ports: ${(error as Error).message.split('\n')[0]}`,
    );
    for (const step of stops.reverse()) await step().catch(() => {});
    stops.length = 0;
    for (const entry of readdirSync(root)) {
      if (entry.endsWith('.log')) renameSync(join(root, entry), join(root, `${entry}.attempt-1`));
      else if (!entry.endsWith('.attempt-1')) rmSync(join(root, entry), { recursive: true, force: true });
    }
    return startPatroniCluster(root, stops);
  }
}

/** `apis` API processes, `workers` workers and `admins` admin servers (as the API's role) on the cluster, started side by side. */
export async function startUnits(
  cluster: Pick<TCluster, 'apiEnv' | 'workerEnv'>,
  counts: { apis: number; workers: number; admins?: number },
  env: TUnitEnv = {},
): Promise<{ apis: TUnit[]; workers: TUnit[]; admins: TUnit[]; stop: () => Promise<void> }> {
  const launches = [
    ...Array.from({ length: counts.apis }, (_, i) => startApi(`api-${i + 1}`, { ...cluster.apiEnv, ...env })),
    ...Array.from({ length: counts.workers }, (_, i) =>
      startWorker(`worker-${i + 1}`, { ...cluster.workerEnv, ...env }),
    ),
    ...Array.from({ length: counts.admins ?? 0 }, (_, i) =>
      startAdmin(`admin-${i + 1}`, { ...cluster.apiEnv, ...env }),
    ),
  ];
  // All settle before anything is judged, so a unit that failed to start leaves none of the others running.
  const settled = await Promise.allSettled(launches);
  const started = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => {
    await Promise.all(started.map((unit) => unit.stop()));
  };
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const apis = started.slice(0, counts.apis);
  const workers = started.slice(counts.apis, counts.apis + counts.workers);
  const admins = started.slice(counts.apis + counts.workers);
  return { apis, workers, admins, stop };
}
