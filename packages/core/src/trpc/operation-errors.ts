import { APP_ERROR_STATUS, type TAppErrorCode } from '../lib/errors.ts';
import type { TMeta } from './init.ts';

/** The error answers of one REST operation: HTTP status → the codes whose bodies it may carry. */
export type TOperationErrors = Map<number, TAppErrorCode[]>;

/**
 * Every error a REST operation may answer, derived from its meta: the ones each API-key operation answers (CONTRACT's
 * order of checks), those of a body (POST), of validation, of a rate limit or of shed reads, and the operation's own
 * (`meta.errors`). The OpenAPI document lists exactly these, and a test holds it to them.
 * `validatesInput`: the operation has parameters or a body a client can get wrong (422).
 */
export function documentedErrors(meta: TMeta, options: { validatesInput: boolean }): TOperationErrors {
  const readsBody = meta.openapi?.method === 'POST';
  const codes: TAppErrorCode[] = ['UNAUTHENTICATED', 'API_ACCESS_DISABLED', 'ORIGIN_NOT_ALLOWED'];
  if (meta.scope) codes.push('INSUFFICIENT_SCOPE');
  if (readsBody) codes.push('MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (options.validatesInput) codes.push('VALIDATION_FAILED');
  if (meta.rateLimit || meta.expensiveRead) codes.push('TOO_MANY_ATTEMPTS');
  codes.push('INTERNAL', 'SERVICE_UNAVAILABLE');
  // The process sheds request bodies it cannot hold, or beyond the share of one key or address, and drops bodies that
  // stop arriving (both before the scope check).
  if (readsBody) codes.push('SERVER_BUSY', 'REQUEST_TIMEOUT');
  codes.push(...(meta.errors ?? []));
  const errors: TOperationErrors = new Map();
  for (const code of codes) {
    const status = APP_ERROR_STATUS[code];
    const list = errors.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    errors.set(status, list);
  }
  return new Map([...errors].sort(([a], [b]) => a - b));
}
