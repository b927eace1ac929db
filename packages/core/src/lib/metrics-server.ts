import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger.ts';
import type { TMetrics } from './metrics.ts';

export type TMetricsServer = { port: number; close: () => Promise<void> };

/** Where the operations endpoint listens unless told otherwise: only this machine (a scraper beside it, or a tunnel). */
export const DEFAULT_METRICS_HOST = '127.0.0.1';

/**
 * A process's operations endpoint, on its own port and apart from any public one: `GET /metrics` (Prometheus text)
 * and `GET /livez`. It answers while the database is down, so a scrape shows the outage instead of a missing target.
 * A port already taken is logged, not fatal: metrics are not worth stopping the API or resume processing for.
 */
export async function startMetricsServer(
  metrics: TMetrics,
  options: { port: number; host: string; log: Logger; name: string },
): Promise<TMetricsServer | undefined> {
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
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  options.log.info({ port, host: options.host }, `${options.name} metrics on http://${host}:${port}/metrics`);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
