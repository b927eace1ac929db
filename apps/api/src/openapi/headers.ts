import { CORS_EXPOSED_HEADERS } from '../rest/facade.ts';
import type { TJson } from './error-schemas.ts';

export const REQUEST_ID_HEADER = {
  description:
    "The request id: the client's `X-Request-Id` when it is 1–128 characters of `A-Z a-z 0-9 . _ : -`, else a generated UUID",
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};
export const RATE_LIMIT_HEADERS = (required: boolean): TJson => ({
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window',
    required,
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the window',
    required,
    schema: { type: 'integer', minimum: 0 },
  },
});
export const RETRY_HEADERS = {
  ...RATE_LIMIT_HEADERS(true),
  'Retry-After': {
    description: 'Seconds to wait (1–60)',
    required: true,
    schema: { type: 'integer', minimum: 1, maximum: 60 },
  },
  'X-RateLimit-Reset': {
    description: 'Unix time (seconds) at which the window resets',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
};
export const ETAG_HEADER = {
  description:
    '(extension) Weak validator of the representation, computed without its view counters; send it back in `If-None-Match`.',
  required: true,
  schema: { type: 'string', pattern: '^W/".+"$' },
  'x-extension': true,
};
export const REPLAYED_HEADER = {
  description:
    '(extension) `true` when this is the stored answer of an earlier request with the same `Idempotency-Key`',
  schema: { type: 'string', const: 'true' },
  'x-extension': true,
};

/** CORS headers of an answer to a publishable key from one of its allowed origins (never to a secret key). */
export const CORS_RESPONSE_HEADERS: TJson = {
  'Access-Control-Allow-Origin': {
    description:
      '(extension) With a publishable key from one of its allowed origins: that origin. Never `*`, never with a secret key.',
    required: false,
    schema: { type: 'string' },
    'x-extension': true,
  },
  'Access-Control-Expose-Headers': {
    description: '(extension) With `Access-Control-Allow-Origin`: the headers a script may read',
    required: false,
    schema: { type: 'string', const: CORS_EXPOSED_HEADERS },
    'x-extension': true,
  },
  Vary: {
    description: '(extension) `Origin`, with `Access-Control-Allow-Origin`',
    required: false,
    schema: { type: 'string', const: 'Origin' },
    'x-extension': true,
  },
};

export function jsonResponse(description: string, schema: TJson, headers: TJson = {}): TJson {
  return {
    description,
    headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...headers },
    content: { 'application/json': { schema } },
  };
}
