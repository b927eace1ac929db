import {
  type Logger,
  type TMetrics,
  startMetricsServer as startOperationsEndpoint,
  type TMetricsServer,
} from '@careers/core';

export type { TMetricsServer };

/** The worker's only HTTP surface: GET /metrics and GET /livez on WORKER_METRICS_PORT (the API serves the same on METRICS_PORT). */
export function startMetricsServer(
  metrics: TMetrics,
  options: { port: number; host: string; log: Logger },
): Promise<TMetricsServer | undefined> {
  return startOperationsEndpoint(metrics, { ...options, name: 'worker' });
}
