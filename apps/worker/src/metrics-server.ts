import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@careers/core/lib/logger.ts';
import type { TMetrics } from '@careers/core/lib/metrics.ts';

export type TMetricsServer = { port: number; close: () => Promise<void> };

/**
 * The worker's only HTTP surface: `GET /metrics` (Prometheus text) and `GET /livez`. It answers while the database
 * is down, so a scrape shows the outage instead of a missing target. A port already taken is logged, not fatal:
 * metrics are not worth stopping resume processing for.
 */
export async function startMetricsServer(metrics: TMetrics, options: { port: number; host: string; log: Logger }): Promise<TMetricsServer | undefined> {
  const server: Server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      metrics
        .render()
        .then(({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body))
        .catch((error: unknown) => {
          options.log.error({ err: error }, 'metrics could not be collected');
          res.writeHead(500).end();
        });
      return;
    }
    if (req.method === 'GET' && path === '/livez') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Resource not found."}');
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (error) => {
      options.log.error({ err: error, port: options.port }, 'metrics endpoint could not listen; running without it');
      resolve(false);
    });
    server.listen(options.port, options.host, () => resolve(true));
  });
  if (!listening) return undefined;
  const port = (server.address() as AddressInfo).port;
  options.log.info({ port }, `worker metrics on http://127.0.0.1:${port}/metrics`);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
