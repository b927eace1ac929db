import { PgBoss } from 'pg-boss';

export const BOSS_SCHEMA = 'pgboss';

/**
 * What a pg-boss instance is for in this process:
 * - `installer` (`careers migrate`): creates or migrates pg-boss's schema, nothing else;
 * - `sender` (API processes): only enqueues; never creates schema objects and runs no maintenance;
 * - `worker`: consumes jobs and runs pg-boss's supervision (expiry, heartbeats, retention); refuses to start
 *   when the schema is missing or behind, like the other deployment units.
 */
export type TBossRole = 'installer' | 'sender' | 'worker';

export type TBossOptions = {
  role: TBossRole;
  /** Connections in pg-boss's own pool. */
  max?: number;
  /** How often the worker's supervisor expires jobs and fails missed heartbeats (seconds). */
  superviseIntervalSeconds?: number;
};

/** pg-boss on the product's own database, in its own schema. */
export function createBoss(databaseUrl: string, options: TBossOptions): PgBoss {
  const { role } = options;
  const supervise = role === 'worker';
  return new PgBoss({
    connectionString: databaseUrl,
    schema: BOSS_SCHEMA,
    application_name: `careers-jobs-${role}`,
    max: options.max ?? (role === 'worker' ? 5 : 2),
    migrate: role === 'installer',
    createSchema: role === 'installer',
    supervise,
    // No cron schedules are used; a scheduler would also create its own queue on start.
    schedule: false,
    // Polling only (pg-boss's default, kept on purpose): LISTEN needs a session, which PgBouncer's transaction
    // pooling does not keep. pg-boss's own advisory locks are transaction-scoped.
    useListenNotify: false,
    ...(supervise
      ? {
          superviseIntervalSeconds: options.superviseIntervalSeconds ?? 30,
          // Expiry and heartbeat checks run in the monitor step: as often as the supervisor.
          monitorIntervalSeconds: options.superviseIntervalSeconds ?? 30,
        }
      : {}),
  });
}
