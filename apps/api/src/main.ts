import { assertSchemaCurrent, coreEnv, createCoreServices, createLogger, openOrm } from '@careers/core';
import { API_DB_TIMEOUTS } from '@careers/core/db/orm.ts';
import { createMetrics } from '@careers/core/lib/metrics.ts';
import { createApiApp } from './app.ts';
import { apiEnv } from './env.ts';

const log = createLogger('api');
const env = apiEnv();
const databaseUrl = coreEnv().DATABASE_URL;
if (!databaseUrl) {
  log.fatal('DATABASE_URL is not set (use `pnpm start` for the embedded development database)');
  process.exit(1);
}

const orm = await openOrm(databaseUrl, { pool: { min: 0, max: coreEnv().DB_POOL_SIZE } }, API_DB_TIMEOUTS);
try {
  await assertSchemaCurrent(orm);
} catch (error) {
  log.fatal((error as Error).message);
  await orm.close();
  process.exit(1);
}
const services = createCoreServices(orm, log, { metrics: createMetrics({ processMetrics: true }) });
const app = createApiApp(services, { publicUrl: env.PUBLIC_URL, trustProxy: env.TRUST_PROXY });
const server = app.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  log.info({ port }, `API listening on http://127.0.0.1:${port}/v1`);
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => server.closeAllConnections(), env.SHUTDOWN_TIMEOUT_MS);
  force.unref();
  server.closeIdleConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await services.close();
  await orm.close();
  log.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
