import type { Server } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { assertSchemaCurrent } from '../db/migrate.ts';
import { openOrm, type TDbTimeouts } from '../db/orm.ts';
import { coreEnv } from '../env.ts';
import type { Logger } from '../lib/logger.ts';

/**
 * The database of a deployment unit (API, worker, admin): DATABASE_URL must be set and the schema must be
 * current — units never migrate; they log why and exit 1 instead.
 */
export async function openDeploymentOrm(
  log: Logger,
  options: { poolSize?: number; timeouts?: TDbTimeouts } = {},
): Promise<{ orm: MikroORM; databaseUrl: string }> {
  const databaseUrl = coreEnv().DATABASE_URL;
  if (!databaseUrl) {
    log.fatal('DATABASE_URL is not set (use `pnpm start` for the embedded development database)');
    process.exit(1);
  }
  const orm = await openOrm(
    databaseUrl,
    { pool: { min: 0, max: options.poolSize ?? coreEnv().DB_POOL_SIZE } },
    options.timeouts,
  );
  try {
    await assertSchemaCurrent(orm);
  } catch (error) {
    log.fatal((error as Error).message);
    await orm.close();
    process.exit(1);
  }
  return { orm, databaseUrl };
}

/** Logs where an HTTP server listens, once it does. */
export function announceListening(server: Server, log: Logger, label: string, path = ''): void {
  server.once('listening', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    log.info({ port }, `${label} listening on http://127.0.0.1:${port}${path}`);
  });
}

/**
 * Graceful stop of an HTTP unit on SIGTERM/SIGINT: stop accepting, let in-flight requests finish (at most
 * `timeoutMs`), then run `close` (flush batched writes, close pools) and exit 0.
 */
export function stopGracefullyOnSignal(
  server: Server,
  log: Logger,
  timeoutMs: number,
  close: () => Promise<void>,
): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    force.unref();
    // Whatever happens below, the process ends: a unit that never exits is worse than one that exits late.
    setTimeout(
      () => {
        log.error('shutdown took too long; exiting');
        process.exit(1);
      },
      timeoutMs * 2 + 5_000,
    ).unref();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
