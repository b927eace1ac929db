import express, { type Request, type Response, type Router } from 'express';
import { hash } from 'node:crypto';
import {
  AppError,
  appRouter,
  clientAddressGroup,
  corsAllowed,
  createCallerFactory,
  createContext,
  listProcedures,
  requireActiveKey,
  replayedAnswerOf,
  SerializedAnswer,
  toAppError,
  type TAppErrorCode,
  type TCoreServices,
  type TMeta,
} from '@careers/core';
import { BODY_BUDGET_BYTES, BODY_STALL_TIMEOUT_MS, BodyBudget, readJsonBody } from './request-body.ts';

type TRoute = { method: 'get' | 'post' | 'delete'; path: string; procedurePath: string; meta: TMeta };

/** The documented path template of an express path (`/vacancies/:slug` → `/v1/vacancies/{slug}`), for metrics. */
const routeTemplate = (path: string) => `/v1${path.replace(/:(\w+)/g, '{$1}')}`;

const createCaller = createCallerFactory(appRouter);

/** The REST operations: every procedure of core's router with `openapi` meta, at its documented path. */
export function restRoutes(): TRoute[] {
  const routes: TRoute[] = [];
  for (const { procedurePath, meta } of listProcedures()) {
    if (!meta?.openapi) continue;
    routes.push({
      method: meta.openapi.method.toLowerCase() as TRoute['method'],
      path: meta.openapi.path.replace(/\{(\w+)\}/g, ':$1'),
      procedurePath,
      meta,
    });
  }
  // Literal segments win over parameters: /vacancies/facets before /vacancies/:slug.
  const weight = (path: string) =>
    path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '1' : '0'))
      .join('');
  return routes.sort((a, b) => weight(a.path).localeCompare(weight(b.path)) || b.path.length - a.path.length);
}

/** Headers a browser script may read from an answer to a publishable key (CONTRACT "Career sites in the browser"). */
export const CORS_EXPOSED_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, X-Request-Id';
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
export const CORS_MAX_AGE_SECONDS = 600;

/** CORS headers of an actual answer to a publishable key's allowed origin (errors included, so the browser reads them). */
function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    Vary: 'Origin',
    'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS,
  };
}

/**
 * Answers a CORS preflight on any /v1 path. A preflight carries no key, so it is answered for every origin (echoed,
 * never `*`): the actual request is what checks the key's origins, and only its answer lets the browser read anything.
 * An OPTIONS without `Origin` is not a browser's preflight: passed on (405 like any unsupported method).
 */
export function corsPreflight(): express.RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    if (req.method !== 'OPTIONS' || !origin) return next();
    res.locals.route = 'preflight';
    res
      .status(204)
      .set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
        'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
        'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
        Vary: 'Origin',
      })
      .end();
  };
}

function sendError(res: Response, error: AppError, headers: Record<string, string> = {}): void {
  // A stalled body is not waited for: the connection ends with the answer.
  const close = error.code === 'REQUEST_TIMEOUT' ? { Connection: 'close' } : {};
  res
    .status(error.status)
    .set({ ...headers, ...error.headers(), ...close })
    .json(error.toBody());
}

/** Answers that protect the process from load (not failures of the request): logged below error level. */
const SHED_CODES = new Set<TAppErrorCode>(['SERVER_BUSY']);

/** Who a request's body is charged to in the body budget: its key and its client address (IPv6 by /64). */
function bodyHolders(req: Request, apiKeyId: number): string[] {
  const address = req.ip ?? req.socket.remoteAddress;
  return [`key:${apiKeyId}`, `address:${address === undefined ? 'unknown' : clientAddressGroup(address)}`];
}

/**
 * Weak ETag over a serialized representation. Answers that show view counters come as a `SerializedAnswer` with
 * an ETag made without them; any other answer has none to leave out.
 */
function etagOf(body: Buffer): string {
  return `W/"${hash('sha1', body, 'base64url')}"`;
}

function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.slice(2);
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

export function publicUrlOf(req: Request, publicUrl: string | undefined): URL {
  const base = publicUrl ? publicUrl.replace(/\/+$/, '') : `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  return new URL(base + req.originalUrl);
}

/**
 * Serves core's procedures as REST. This is the one layer between HTTP and the procedures: it
 * authenticates before reading a body (CONTRACT's order), turns query/path/body into procedure input,
 * and writes the documented bodies, statuses and headers for whatever the procedure returns or throws.
 * A body is read and checked here but parsed by the procedure, after its scope and rate-limit checks.
 */
export function createRestFacade(
  services: TCoreServices,
  options: { publicUrl?: string; bodyStallTimeoutMs?: number } = {},
): Router {
  const facade = express.Router();
  const bodyBudget = new BodyBudget(BODY_BUDGET_BYTES);
  services.metrics.observeBodyBudget(bodyBudget);
  const stallTimeoutMs = options.bodyStallTimeoutMs ?? BODY_STALL_TIMEOUT_MS;
  const methodsByPath = new Map<string, string[]>();

  for (const route of restRoutes()) {
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method.toUpperCase()]);
    const template = routeTemplate(route.path);
    facade[route.method](route.path, async (req, res) => {
      res.locals.route = template;
      const responseHeaders: Record<string, string> = {};
      const finished = services.beginRequest();
      let releaseBody: (() => void) | undefined;
      try {
        const origin = req.get('origin');
        const verification = await services.keys.verify(req.get('authorization'));
        // Before any check that may refuse it: a browser on an allowed origin reads a 403/404/422/429 too.
        // An unknown key gets none (nothing says which origins it would allow); a secret key never does.
        if (origin && corsAllowed(verification, origin)) Object.assign(responseHeaders, corsHeaders(origin));
        if (verification.ok) {
          res.locals.tenant = verification.tenant.slug;
          res.locals.apiKeyId = verification.apiKey.id;
        }
        const verifiedKey = requireActiveKey(verification, origin);

        let input: unknown;
        if (route.method === 'post') {
          // The operation's query parameters are always set (also to undefined), so the body cannot supply them.
          const query = Object.fromEntries(
            (route.meta.queryParameters ?? []).map((name) => [name, (req.query as Record<string, unknown>)[name]]),
          );
          const read = await readJsonBody(
            req,
            bodyBudget,
            { ...query, ...req.params },
            { holders: bodyHolders(req, verifiedKey.apiKey.id), stallTimeoutMs },
          );
          releaseBody = read.release;
          input = read.body;
        } else {
          input = { ...(req.query as Record<string, unknown>), ...req.params };
        }

        const ctx = createContext(services, {
          requestId: res.locals.requestId as string,
          log: req.log,
          authorization: req.get('authorization'),
          verifiedKey,
          origin,
          clientIp: req.ip,
          url: publicUrlOf(req, options.publicUrl),
          idempotencyKey: req.get('idempotency-key'),
          serializedAnswers: true,
        });
        const call = route.procedurePath
          .split('.')
          .reduce<unknown>((node, segment) => (node as Record<string, unknown>)[segment], createCaller(ctx)) as (
          input: unknown,
        ) => Promise<unknown>;
        try {
          // An Idempotency-Key's stored answer comes back thrown (see ReplayedAnswer): it is the success it was.
          const data = await call(input).catch((error: unknown) => {
            const replay = replayedAnswerOf(error);
            if (!replay) throw error;
            return replay.data;
          });
          Object.assign(responseHeaders, ctx.response.headers);
          const status = ctx.response.status ?? route.meta.successStatus ?? 200;
          if (status === 204) {
            res.writeHead(204, responseHeaders).end();
            return;
          }
          // Cached reads answer in their final bytes; anything else is serialized here.
          const serialized = data instanceof SerializedAnswer ? data : undefined;
          const body = serialized?.body ?? Buffer.from(JSON.stringify(data));
          if (route.method === 'get') {
            const etag = serialized?.etag ?? etagOf(body);
            responseHeaders.ETag = etag;
            responseHeaders['Cache-Control'] = 'private, max-age=0, must-revalidate';
            if (matchesIfNoneMatch(req.get('if-none-match'), etag)) {
              res.status(304).set(responseHeaders).end();
              return;
            }
          }
          // Written as is: the bytes are final, and express's send would only look them over again.
          res
            .writeHead(status, {
              ...responseHeaders,
              'Content-Type': 'application/json; charset=utf-8',
              'Content-Length': body.length,
            })
            .end(body);
        } catch (error) {
          Object.assign(responseHeaders, ctx.response.headers);
          throw error;
        }
      } catch (error) {
        const appError = toAppError(error);
        if (SHED_CODES.has(appError.code)) {
          // Shedding is the process protecting itself, not a failure of this request (the completion line says so too).
          res.locals.shed = true;
          req.log.warn({ code: appError.code }, 'request shed');
        } else if (appError.status >= 500) {
          // The request's logger, so the line carries the request id.
          req.log.error(
            { err: appError.cause ?? error, code: appError.code, detail: appError.detail },
            'request failed',
          );
        }
        if (appError.code === 'TOO_MANY_ATTEMPTS' && route.meta.rateLimit) {
          services.metrics.rateLimitRejections.inc({ operation: route.meta.rateLimit });
        }
        sendError(res, appError, responseHeaders);
      } finally {
        releaseBody?.();
        finished();
      }
    });
  }

  for (const [path, methods] of methodsByPath) {
    const allow = [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : [])])].join(', ');
    facade.all(path, (_req, res) => {
      res.locals.route = routeTemplate(path);
      res.set('Allow', allow);
      sendError(res, new AppError('METHOD_NOT_ALLOWED'));
    });
  }
  // A path parameter that is not valid percent-encoding (`/vacancies/%zz`) cannot name a resource: 404, not a 500.
  facade.use((error: unknown, _req: Request, res: Response, next: (error?: unknown) => void) => {
    if (!(error instanceof URIError)) return next(error);
    sendError(res, new AppError('NOT_FOUND'));
  });
  return facade;
}
