import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { serviceFolder } from './os-user.ts';
import { startPgBouncer, type TPgBouncer } from './pgbouncer.ts';
import { DATABASE, startPrimary, startReplica, waitForReplay, type TPostgresServer } from './postgres.ts';
import { careers, startApi, startWorker, type TUnit, type TUnitEnv } from './units.ts';

/** The name under which PgBouncer serves the replica (DATABASE_READ_URL). */
export const REPLICA_DATABASE = 'careers_replica';

export type TCluster = {
  primary: TPostgresServer;
  replica?: TPostgresServer;
  bouncer: TPgBouncer;
  /** DATABASE_URL of the units: the primary through PgBouncer. */
  writeUrl: string;
  /** DATABASE_READ_URL of the units: the replica through PgBouncer (when there is one). */
  readUrl?: string;
  /** The environment of the units: both URLs, quiet, no operations ports. */
  unitEnv: TUnitEnv;
  /** Waits until the replica has replayed everything written so far. */
  replicaCaughtUp: () => Promise<void>;
  stop: () => Promise<void>;
};

export type TClusterOptions = {
  /** A streaming replica next to the primary (default true). */
  replica?: boolean;
  /** Vacancies of the generated tenant (`careers demo-document --large N`). */
  vacancies: number;
  /** Connections per unit in its pool (DB_POOL_SIZE). */
  poolSize?: number;
};

/**
 * A primary (PostgreSQL 15), optionally a streaming replica, and PgBouncer in transaction pooling in front of
 * both. The schema is applied and a generated tenant imported the way operators do it: `careers migrate` and
 * `careers import` against the primary, before the replica is cloned from it. Everything lives in one temp
 * folder, removed on stop; a failed start stops what it started.
 */
export async function startCluster(options: TClusterOptions): Promise<TCluster> {
  const root = serviceFolder('careers-cluster-');
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => {});
    stops.length = 0;
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const primary = await startPrimary(root);
    stops.push(primary.stop);
    const document = join(root, 'tenant.json');
    await careers(['demo-document', '--large', String(options.vacancies), '--seed', '7', '--out', document], {});
    await careers(['migrate'], { DATABASE_URL: primary.url });
    await careers(['import', document], { DATABASE_URL: primary.url });

    let replica: TPostgresServer | undefined;
    if (options.replica ?? true) {
      replica = await startReplica(root, primary);
      stops.push(replica.stop);
    }
    const bouncer = await startPgBouncer(
      root,
      [{ name: DATABASE, port: primary.port }, ...(replica ? [{ name: REPLICA_DATABASE, port: replica.port, dbname: DATABASE }] : [])],
      primary.port,
    );
    await bouncer.start();
    stops.push(bouncer.stop);

    const writeUrl = bouncer.urlOf(DATABASE);
    const readUrl = replica ? bouncer.urlOf(REPLICA_DATABASE) : undefined;
    return {
      primary,
      replica,
      bouncer,
      writeUrl,
      readUrl,
      unitEnv: { DATABASE_URL: writeUrl, ...(readUrl ? { DATABASE_READ_URL: readUrl } : {}), DB_POOL_SIZE: String(options.poolSize ?? 5) },
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

/** `apis` API processes and `workers` workers on the cluster, started side by side. */
export async function startUnits(cluster: TCluster, counts: { apis: number; workers: number }, env: TUnitEnv = {}): Promise<{ apis: TUnit[]; workers: TUnit[]; stop: () => Promise<void> }> {
  const started: TUnit[] = [];
  const track = (unit: Promise<TUnit>) => unit.then((u) => (started.push(u), u));
  const stop = async () => {
    await Promise.all(started.map((unit) => unit.stop()));
  };
  try {
    const apis = await Promise.all(Array.from({ length: counts.apis }, (_, i) => track(startApi(`api-${i + 1}`, { ...cluster.unitEnv, ...env }))));
    const workers = await Promise.all(Array.from({ length: counts.workers }, (_, i) => track(startWorker(`worker-${i + 1}`, { ...cluster.unitEnv, ...env }))));
    return { apis, workers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
