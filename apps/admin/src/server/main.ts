import {
  createCoreServices,
  createLogger,
  announceListening,
  openDeploymentOrm,
  stopGracefullyOnSignal,
} from '@careers/core';
import { createAdminApp } from './app.ts';
import { DEFAULT_DIST_DIR, ensureDashboardBuilt } from './build.ts';
import { adminEnv } from './env.ts';

const log = createLogger('admin');
const env = adminEnv();
if (await ensureDashboardBuilt(DEFAULT_DIST_DIR))
  log.info({ dist: DEFAULT_DIST_DIR }, 'built the dashboard (dist/ was missing)');

const { orm } = await openDeploymentOrm(log);
const services = createCoreServices(orm, log);
const server = createAdminApp(services, { distDir: DEFAULT_DIST_DIR, trustProxy: env.TRUST_PROXY }).listen(
  env.ADMIN_PORT,
  env.HOST,
);
announceListening(server, log, 'Admin dashboard');
stopGracefullyOnSignal(server, log, env.SHUTDOWN_TIMEOUT_MS, async () => {
  await services.close();
  await orm.close();
});
