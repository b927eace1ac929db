import { assertSchemaCurrent, coreEnv, createCoreServices, createLogger, openOrm } from '@careers/core';
import { createAdminApp } from './app.ts';
import { DEFAULT_DIST_DIR, ensureDashboardBuilt } from './build.ts';
import { adminEnv } from './env.ts';

const log = createLogger('admin');
const env = adminEnv();
const databaseUrl = coreEnv().DATABASE_URL;
if (!databaseUrl) {
  log.fatal('DATABASE_URL is not set (use `pnpm start` for the embedded development database)');
  process.exit(1);
}

if (await ensureDashboardBuilt(DEFAULT_DIST_DIR)) log.info({ dist: DEFAULT_DIST_DIR }, 'built the dashboard (dist/ was missing)');

const orm = await openOrm(databaseUrl, { pool: { min: 0, max: coreEnv().DB_POOL_SIZE } });
try {
  await assertSchemaCurrent(orm);
} catch (error) {
  log.fatal((error as Error).message);
  await orm.close();
  process.exit(1);
}
const services = createCoreServices(orm, log);
const app = createAdminApp(services, { distDir: DEFAULT_DIST_DIR, trustProxy: env.TRUST_PROXY });
const server = app.listen(env.ADMIN_PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.ADMIN_PORT;
  log.info({ port }, `Admin dashboard listening on http://127.0.0.1:${port}`);
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
