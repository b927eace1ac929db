import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's PostgreSQL 15 and PgBouncer 1.18 (scripts/ensure-binaries.sh installs them when it can). */
export const PG_BIN = process.env.CLUSTER_PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const PGBOUNCER = process.env.CLUSTER_PGBOUNCER ?? '/usr/sbin/pgbouncer';

/** Whether the cluster can run here; the tests skip themselves (with this reason) when it cannot. */
export function missingBinaries(): string | undefined {
  const missing = [join(PG_BIN, 'postgres'), join(PG_BIN, 'initdb'), join(PG_BIN, 'pg_basebackup'), PGBOUNCER].filter(
    (path) => !existsSync(path),
  );
  return missing.length === 0 ? undefined : `missing ${missing.join(', ')} (install postgresql-15 and pgbouncer)`;
}

/** Patroni 3.0, etcd 3.4 and HAProxy 2.6 from Debian, for the failover tests. */
export const PATRONI = '/usr/bin/patroni';
export const ETCD = '/usr/bin/etcd';
export const HAPROXY = '/usr/sbin/haproxy';

/** Whether the Patroni cluster can run here (the failover tests skip themselves with this reason when it cannot). */
export function missingFailoverBinaries(): string | undefined {
  const missing = [join(PG_BIN, 'postgres'), join(PG_BIN, 'pg_rewind'), PATRONI, ETCD, HAPROXY].filter(
    (path) => !existsSync(path),
  );
  return missing.length === 0
    ? undefined
    : `missing ${missing.join(', ')} (install postgresql-15, patroni, etcd-server and haproxy)`;
}
