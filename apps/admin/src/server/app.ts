import express, { type Express } from 'express';
import { AppError, type TAppErrorCode, type TCoreServices } from '@careers/core';
import { requestIdOf, trustProxySetting } from '@careers/core';
import { createTrpcEndpoint } from './trpc-endpoint.ts';
import { sendAppError } from './send-error.ts';
import { serveDashboard } from './static-files.ts';

export type TAdminAppOptions = {
  /** The built browser app (index.html and assets/). */
  distDir: string;
  trustProxy?: string;
};

/** What express's own failures (the JSON parser's above all) answer, in core's public words. */
const PARSER_ERRORS: Partial<Record<number, TAppErrorCode>> = {
  400: 'MALFORMED_JSON',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
};

/** One small server: the tRPC endpoint of the dashboard's procedures and the built app. */
export function createAdminApp(services: TCoreServices, options: TAdminAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.trustProxy) app.set('trust proxy', trustProxySetting(options.trustProxy));

  app.use((req, res, next) => {
    res.set({
      'X-Request-Id': requestIdOf(req.get('x-request-id')),
      // Only our own files run here; nothing may frame the dashboard (clickjacking on "Revoke").
      'Content-Security-Policy':
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/trpc', createTrpcEndpoint(services));
  app.use(serveDashboard(options.distDir));

  app.use((_req, res) => {
    sendAppError(res, new AppError('NOT_FOUND'));
  });
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status =
      (error as { status?: number; statusCode?: number }).status ??
      (error as { statusCode?: number }).statusCode ??
      500;
    // A client's odd request (a path like /assets/..%2f.., a bad body) is answered 4xx and is no server error.
    const clientError = status >= 400 && status < 500;
    if (clientError) services.log.debug({ status, path: req.path }, 'request refused');
    else services.log.error({ err: error }, 'unhandled error');
    if (res.headersSent) return;
    sendAppError(res, new AppError(PARSER_ERRORS[status] ?? (clientError ? 'NOT_FOUND' : 'INTERNAL')));
  });
  return app;
}
