import type express from 'express';
import { lazyChild, type Logger } from '@careers/core';

declare module 'http' {
  interface IncomingMessage {
    /** The request's logger: every line carries `request_id`. */
    log: Logger;
  }
}

const QUIET_PATHS = new Set(['/v1/livez', '/v1/readyz']);

/** A key-shaped segment (a client that put its key in the URL): never written to a log. */
const KEY_IN_PATH = /[cp]k_[A-Za-z0-9]+_[A-Za-z0-9_-]{8,}/g;

/** The path of a request as logged: no query string (it may carry personal data), no key. */
function loggablePath(url: string): string {
  return (url.split('?')[0] ?? '').replace(KEY_IN_PATH, '[redacted]');
}

/**
 * The request's logger (`req.log`, bound to `request_id`, made only when something logs: `lazyChild`) and one completion line
 * per request — `request completed`, `request errored` for a 5xx, or `request shed` at warn for a 503 that protects the
 * process from load (`res.locals.shed`, an expected answer, not a failure) — with method, path (no query, no key),
 * status, response time, tenant and key. Probes log at debug. Nothing is built for a line the level leaves out:
 * a logger per request cost a fifth of a cached read's CPU.
 */
export function requestLog(log: Logger): express.RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    req.log = lazyChild(log, { request_id: res.locals.requestId as string });
    const complete = () => {
      res.off('finish', complete);
      res.off('close', complete);
      const shed = res.locals.shed === true;
      const failed = res.statusCode >= 500 && !shed;
      const level = failed
        ? 'error'
        : shed
          ? 'warn'
          : QUIET_PATHS.has(req.originalUrl.split('?')[0] ?? '')
            ? 'debug'
            : 'info';
      if (!log.isLevelEnabled(level)) return;
      const line = {
        req: { method: req.method, path: loggablePath(req.originalUrl) },
        tenant: res.locals.tenant as string | undefined,
        api_key_id: res.locals.apiKeyId as number | undefined,
        res: { status: res.statusCode },
        responseTime: Date.now() - started,
      };
      if (failed)
        req.log.error({ ...line, err: new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
      else req.log[level](line, shed ? 'request shed' : 'request completed');
    };
    res.on('finish', complete);
    res.on('close', complete);
    next();
  };
}
