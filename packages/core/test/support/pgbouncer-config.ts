import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type TPgBouncerConfig = {
  /** Where PgBouncer listens (127.0.0.1). */
  port: number;
  /** Named entries (`name = host=… port=… dbname=…`), before the `*` entry. */
  databases?: Array<{ name: string; port: number; dbname?: string }>;
  /** Where any other database name goes (test files create a database each). */
  fallbackPort: number;
  /** Roles besides `postgres` that may connect (trusted, no password). */
  roles?: string[];
  /** Server connections per (database, user) pair. */
  poolSize: number;
};

/**
 * Writes `pgbouncer.ini` and its user list into `root` for PgBouncer 1.18 in transaction pooling, as production runs
 * it; returns the files written. `postgres` is the admin-console user; a server that went away is noticed on its next
 * use rather than handed out again.
 */
export function writePgBouncerConfig(root: string, config: TPgBouncerConfig): { ini: string; files: string[] } {
  const ini = join(root, 'pgbouncer.ini');
  const userList = join(root, 'userlist.txt');
  writeFileSync(userList, ['postgres', ...(config.roles ?? [])].map((role) => `"${role}" ""\n`).join(''));
  writeFileSync(
    ini,
    [
      '[databases]',
      ...(config.databases ?? []).map(
        ({ name, port, dbname }) => `${name} = host=127.0.0.1 port=${port} dbname=${dbname ?? name}`,
      ),
      `* = host=127.0.0.1 port=${config.fallbackPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${config.port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${userList}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      `default_pool_size = ${config.poolSize}`,
      'max_client_conn = 1000',
      'server_check_delay = 0',
      'server_login_retry = 1',
      'ignore_startup_parameters = extra_float_digits',
      `pidfile = ${join(root, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  return { ini, files: [ini, userList] };
}
