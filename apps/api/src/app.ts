import express, { type Express } from 'express';
import swaggerUi from 'swagger-ui-express';
import { AppError, type TCoreServices, requestIdOf, trustProxySetting } from '@careers/core';
import { corsPreflight, createRestFacade } from './rest/facade.ts';
import { parseQueryString } from './rest/query.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { requestLog } from './request-log.ts';

/** Label of requests that matched no route: raw URLs would make one time series per probe of a scanner. */
const UNMATCHED_ROUTE = 'unmatched';

/** Names the route of a request for metrics (its template, never the raw URL). */
function routeLabel(route: string): express.RequestHandler {
  return (_req, res, next) => {
    res.locals.route = route;
    next();
  };
}

/** Counts every request and its latency by method, route template and status, once the answer is sent. */
function recordRequestMetrics(metrics: TCoreServices['metrics']): express.RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = {
        method: req.method,
        route: (res.locals.route as string | undefined) ?? UNMATCHED_ROUTE,
        status: String(res.statusCode),
      };
      metrics.httpRequests.inc(labels);
      metrics.httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

export type TApiOptions = { publicUrl?: string; trustProxy?: string; bodyStallTimeoutMs?: number };

export function createApiApp(services: TCoreServices, options: TApiOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQueryString);
  if (options.trustProxy) app.set('trust proxy', trustProxySetting(options.trustProxy));

  app.use((req, res, next) => {
    const requestId = requestIdOf(req.get('x-request-id'));
    res.locals.requestId = requestId;
    res.set('X-Request-Id', requestId);
    next();
  });
  app.use(recordRequestMetrics(services.metrics));
  app.use(requestLog(services.log));

  // GET /metrics is not served here (a 404 like any unknown path): main.ts serves it on METRICS_PORT.
  const document = buildOpenApiDocument(options.publicUrl);
  const v1 = express.Router();
  v1.use(corsPreflight());
  v1.get('/openapi.json', routeLabel('/v1/openapi.json'), (_req, res) => {
    res.json(document);
  });
  v1.use(
    '/docs',
    routeLabel('/v1/docs'),
    swaggerUi.serve,
    swaggerUi.setup(document, { customSiteTitle: 'Careers API v1' }),
  );
  v1.get('/livez', routeLabel('/v1/livez'), (_req, res) => {
    res.json({ status: 'ok' });
  });
  v1.get('/readyz', routeLabel('/v1/readyz'), async (req, res) => {
    try {
      await services.orm.em.fork().execute('select 1');
      res.json({ status: 'ok' });
    } catch (error) {
      req.log.warn({ err: error }, 'database not ready');
      res.status(503).json(new AppError('SERVICE_UNAVAILABLE').toBody());
    }
  });
  v1.use(createRestFacade(services, { publicUrl: options.publicUrl, bodyStallTimeoutMs: options.bodyStallTimeoutMs }));
  app.use('/v1', v1);

  app.use((_req, res) => {
    const error = new AppError('NOT_FOUND');
    res.status(error.status).json(error.toBody());
  });
  // Anything thrown outside the facade (it never lets an error escape) ends here: no stack, no SQL.
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    (req.log ?? services.log).error({ err: error }, 'unhandled error');
    const body = new AppError('INTERNAL').toBody();
    if (!res.headersSent) res.status(500).json(body);
  });
  return app;
}
