import type { Request, RequestHandler } from 'express';
import { AppError } from '@careers/core';
import { sendAppError } from './send-error.ts';

/** The origin the browser used to reach this server (scheme and host, as trusted proxies report them). */
export function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? ''}`;
}

/**
 * Cross-site request forgery guard for state-changing requests: only JSON bodies (a cross-site form cannot
 * send them without a CORS preflight, which this server never answers) and only from this origin. The
 * SameSite=Strict cookie is the first line; this one also covers browsers and proxies that lose it.
 */
export function requireSameOriginJson(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    if (!req.is('application/json')) {
      sendAppError(res, new AppError('JSON_BODY_REQUIRED'));
      return;
    }
    const origin = req.get('origin');
    const fetchSite = req.get('sec-fetch-site');
    const sameOrigin = origin !== undefined ? origin === ownOrigin(req) : fetchSite === 'same-origin';
    if (!sameOrigin) {
      sendAppError(res, new AppError('CROSS_SITE_REQUEST'));
      return;
    }
    next();
  };
}
