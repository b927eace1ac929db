import express, { type Express } from 'express';
import { randomUUID } from 'node:crypto';
import type { TCoreServices } from '@careers/core';
import { createTrpcEndpoint } from './trpc-endpoint.ts';
import { serveDashboard } from './static-files.ts';

export type TAdminAppOptions = {
  /** The built browser app (index.html and assets/). */
  distDir: string;
  trustProxy?: string;
};

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** One small server: the tRPC endpoint of the dashboard's procedures and the built app. */
export function createAdminApp(services: TCoreServices, options: TAdminAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.trustProxy) app.set('trust proxy', /^\d+$/.test(options.trustProxy) ? Number(options.trustProxy) : options.trustProxy);

  app.use((req, res, next) => {
    const incoming = req.get('x-request-id');
    res.set({
      'X-Request-Id': incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID(),
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
    res.status(404).json({ message: 'Resource not found.' });
  });
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) services.log.error({ err: error }, 'unhandled error');
    if (res.headersSent) return;
    if (status === 400) res.status(400).json({ message: 'Malformed JSON body.' });
    else if (status === 404) res.status(404).json({ message: 'Resource not found.' });
    else if (status === 413) res.status(413).json({ message: 'Payload too large.' });
    else res.status(500).json({ message: 'Server Error.' });
  });
  return app;
}
