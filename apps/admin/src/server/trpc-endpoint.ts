import express, { type Router } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { AppError, appRouter, toAppError, type TCoreServices } from '@careers/core';
import { createAdminContext } from '@careers/core/admin';
import { ownOrigin, requireSameOriginJson } from './csrf.ts';
import { sendAppError } from './send-error.ts';

/** Only the dashboard's procedures are reachable here; API-key procedures are served by the API. */
const ADMIN_PATH = /^admin\.[A-Za-z.]+$/;

export function createTrpcEndpoint(services: TCoreServices): Router {
  const endpoint = express.Router();
  endpoint.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.set('Allow', 'GET, POST');
      sendAppError(res, new AppError('METHOD_NOT_ALLOWED'));
      return;
    }
    let paths: string[];
    try {
      paths = decodeURIComponent(req.path.slice(1)).split(',');
    } catch {
      paths = [];
    }
    if (paths.length === 0 || !paths.every((path) => ADMIN_PATH.test(path))) {
      sendAppError(res, new AppError('NOT_FOUND'));
      return;
    }
    next();
  });
  endpoint.use(requireSameOriginJson());
  endpoint.use(express.json({ limit: '64kb' }));
  endpoint.use(
    createExpressMiddleware({
      router: appRouter,
      // The dashboard posts the reads whose input is personal data (find a person by email), so no URL holds it;
      // a POST passes the same-origin JSON guard above like every mutation.
      allowMethodOverride: true,
      createContext: ({ req }) =>
        createAdminContext(services, {
          url: new URL(req.originalUrl, ownOrigin(req)),
          cookie: req.get('cookie'),
          clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
          requestId: req.get('x-request-id'),
        }),
      responseMeta: ({ ctx, errors }) => {
        const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...ctx?.response.headers };
        // The documented status of the first error (401, 403, 422, 429…), not tRPC's generic mapping, with its headers.
        const first = errors[0];
        if (!first) return { headers };
        const appError = toAppError(first);
        return { status: appError.status, headers: { ...headers, ...appError.headers() } };
      },
      onError: ({ error, path }) => {
        const appError = toAppError(error);
        if (appError.status >= 500) services.log.error({ err: error, path }, 'admin procedure failed');
      },
    }),
  );
  return endpoint;
}
