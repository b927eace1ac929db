import {
  createCoreServices,
  createLogger,
  API_DB_TIMEOUTS,
  announceListening,
  openDeploymentOrm,
  stopGracefullyOnSignal,
  createMetrics,
  startMetricsServer,
  coreEnv,
} from '@careers/core';
import { createApiApp } from './app.ts';
import { apiEnv } from './env.ts';

const log = createLogger('api');
const env = apiEnv();
if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
  log.warn(
    'PUBLIC_URL is not set: pagination links and URLs in answers follow the Host header of each request; set PUBLIC_URL to the public base address',
  );
}
const { orm } = await openDeploymentOrm(log, { timeouts: API_DB_TIMEOUTS });
const services = createCoreServices(orm, log, {
  metrics: createMetrics({ processMetrics: true }),
  contentCacheBytes: env.CONTENT_CACHE_MB * 1024 * 1024,
  readLimits: {
    perKey: env.EXPENSIVE_READS_PER_KEY,
    total: Math.max(env.EXPENSIVE_READS_PER_KEY, env.EXPENSIVE_READS_PER_PROCESS),
  },
  readReplicaUrl: coreEnv().DATABASE_READ_URL,
});
const server = createApiApp(services, {
  publicUrl: env.PUBLIC_URL,
  trustProxy: env.TRUST_PROXY,
  bodyStallTimeoutMs: env.BODY_STALL_TIMEOUT_MS,
}).listen(env.PORT, env.HOST);
announceListening(server, log, 'API', '/v1');
// Metrics are for the operator, not for callers: their own port, on this machine only unless METRICS_HOST says otherwise.
const metricsServer =
  env.METRICS_PORT === 0
    ? undefined
    : await startMetricsServer(services.metrics, { port: env.METRICS_PORT, host: env.METRICS_HOST, log, name: 'API' });
stopGracefullyOnSignal(server, log, env.SHUTDOWN_TIMEOUT_MS, async () => {
  await services.close();
  await metricsServer?.close();
  await orm.close();
});
