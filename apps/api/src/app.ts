import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { randomUUID } from 'node:crypto';
import swaggerUi from 'swagger-ui-express';
import { AppError, type TCoreServices } from '@careers/core';
import { createRestFacade } from './rest/facade.ts';
import { parseQueryString } from './rest/query.ts';
import { buildOpenApiDocument } from './openapi.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type TApiOptions = { publicUrl?: string; trustProxy?: string };

export function createApiApp(services: TCoreServices, options: TApiOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQueryString);
  if (options.trustProxy) app.set('trust proxy', /^\d+$/.test(options.trustProxy) ? Number(options.trustProxy) : options.trustProxy);

  app.use((req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.set('X-Request-Id', requestId);
    next();
  });
  app.use(
    pinoHttp({
      logger: services.log,
      genReqId: (_req, res) => (res as express.Response).locals.requestId as string,
      customProps: (_req, res) => ({
        tenant: (res as express.Response).locals.tenant,
        api_key_id: (res as express.Response).locals.apiKeyId,
      }),
      // Only method and path: headers carry the API key, query strings may carry personal data.
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    }),
  );

  const document = buildOpenApiDocument(options.publicUrl);
  const v1 = express.Router();
  v1.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  v1.use('/docs', swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Careers API v1' }));
  v1.get('/livez', (_req, res) => {
    res.json({ status: 'ok' });
  });
  v1.get('/readyz', async (_req, res) => {
    try {
      await services.orm.em.fork().execute('select 1');
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ message: 'Service Unavailable.' });
    }
  });
  v1.use(createRestFacade(services, { publicUrl: options.publicUrl }));
  app.use('/v1', v1);

  app.use((_req, res) => {
    const error = new AppError('NOT_FOUND');
    res.status(error.status).json(error.toBody());
  });
  // Anything thrown outside the facade (it never lets an error escape) ends here: no stack, no SQL.
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    services.log.error({ err: error }, 'unhandled error');
    const body = new AppError('INTERNAL').toBody();
    if (!res.headersSent) res.status(500).json(body);
  });
  return app;
}
