import { createCoreServices, createLogger } from '@careers/core';
import { API_DB_TIMEOUTS } from '@careers/core/db/orm.ts';
import { announceListening, openDeploymentOrm, stopGracefullyOnSignal } from '@careers/core/lib/boot.ts';
import { createMetrics } from '@careers/core/lib/metrics.ts';
import { coreEnv } from '@careers/core/env.ts';
import { startMetricsServer } from '@careers/core/lib/metrics-server.ts';
import { createApiApp } from './app.ts';
import { apiEnv } from './env.ts';

const log = createLogger('api');
const env = apiEnv();
const { orm } = await openDeploymentOrm(log, { timeouts: API_DB_TIMEOUTS });
const services = createCoreServices(orm, log, {
  metrics: createMetrics({ processMetrics: true }),
  contentCacheBytes: env.CONTENT_CACHE_MB * 1024 * 1024,
  readLimits: { perKey: env.EXPENSIVE_READS_PER_KEY, total: Math.max(env.EXPENSIVE_READS_PER_KEY, env.EXPENSIVE_READS_PER_PROCESS) },
  readReplicaUrl: coreEnv().DATABASE_READ_URL,
});
const server = createApiApp(services, { publicUrl: env.PUBLIC_URL, trustProxy: env.TRUST_PROXY }).listen(env.PORT, env.HOST);
announceListening(server, log, 'API', '/v1');
// Metrics are for the operator, not for callers: their own port, on this machine only unless METRICS_HOST says otherwise.
const metricsServer =
  env.METRICS_PORT === 0 ? undefined : await startMetricsServer(services.metrics, { port: env.METRICS_PORT, host: env.METRICS_HOST, log, name: 'API' });
stopGracefullyOnSignal(server, log, env.SHUTDOWN_TIMEOUT_MS, async () => {
  await services.close();
  await metricsServer?.close();
  await orm.close();
});
