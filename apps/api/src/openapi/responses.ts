import { documentedErrors, type TAppErrorCode, type TMeta } from '@careers/core';
import { RETRY_AFTER_SECONDS } from '@careers/core';
import { MAX_JSON_VALUES } from '@careers/core';
import { BODY_STALL_TIMEOUT_MS } from '../rest/request-body.ts';
import { errorBodiesSchema, ref, type TJson } from './error-schemas.ts';
import {
  ETAG_HEADER,
  jsonResponse,
  RATE_LIMIT_HEADERS,
  REPLAYED_HEADER,
  REQUEST_ID_HEADER,
  RETRY_HEADERS,
} from './headers.ts';

/** Adds the formats the generator cannot see (timestamps are ISO-8601 UTC, pagination links are absolute URLs). */
export function addFormats(schema: unknown, key = '', parent = ''): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const item of schema) addFormats(item, key, parent);
    return;
  }
  const node = schema as TJson;
  const types: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('string') && node.format === undefined) {
    if (/_at$/.test(key)) node.format = 'date-time';
    else if (parent === 'links' || (parent === 'meta' && key === 'path')) node.format = 'uri';
  }
  for (const [childKey, child] of Object.entries(node)) {
    if (childKey === 'properties' && child && typeof child === 'object') {
      for (const [property, propertySchema] of Object.entries(child as TJson))
        addFormats(propertySchema, property, key);
    } else if (childKey === 'items') {
      // An array's items are not the object its name calls for: a profile's `links` array is not pagination links.
      addFormats(child, `${key}[]`, parent);
    } else if (childKey === 'anyOf' || childKey === 'oneOf' || childKey === 'allOf') {
      addFormats(child, key, parent);
    }
  }
}

/** Codes whose answers exist only as extensions of the original interface. */
const EXTENSION_CODES = new Set<TAppErrorCode>(['UNSUPPORTED_MEDIA_TYPE', 'DUPLICATE_APPLICATION', 'REQUEST_TIMEOUT']);

type TErrorAnswer = { meta: TMeta; codes: TAppErrorCode[] };

/** What each error status means for an operation, in the words of the codes it carries. */
const ERROR_DESCRIPTIONS: Record<number, (answer: TErrorAnswer) => string> = {
  400: ({ codes }) =>
    codes.includes('VACANCY_CLOSED')
      ? 'Malformed JSON body (no rate-limit headers), or the vacancy no longer accepts applications (`VACANCY_CLOSED`)'
      : 'Malformed JSON body',
  401: () => 'Missing, unknown, malformed or revoked API key (the same body in every case)',
  403: ({ codes }) =>
    (codes.includes('INSUFFICIENT_SCOPE')
      ? 'The tenant has API access switched off, the key lacks the required scope'
      : 'The tenant has API access switched off') +
    ', or (`ORIGIN_NOT_ALLOWED`) the key is publishable and the request has no `Origin` or one the key does not allow',
  404: ({ codes }) =>
    codes.includes('VACANCY_NOT_FOUND')
      ? 'The vacancy does not exist, is not visible, or belongs to another tenant (`VACANCY_NOT_FOUND`)'
      : "Resource not found: unknown, invisible, or another tenant's",
  409: () =>
    '(extension) The tenant rejects duplicate applications (`duplicate_applications: "reject"`) and this vacancy already has an application with this email (case-insensitive)',
  408: () =>
    `(extension) The body stopped arriving: no byte for ${BODY_STALL_TIMEOUT_MS / 1000} s (before the scope check, no rate-limit headers); ` +
    'the connection is closed after this answer',
  410: () => 'The cursor is older than the retention (at least 30 days): read again without `after`',
  413: () => `Body larger than 40 MiB, or with more than ${MAX_JSON_VALUES} JSON values`,
  415: () => '(extension) The body is compressed (`Content-Encoding` other than `identity`): send it uncompressed',
  422: () => 'Validation failed',
  429: ({ meta }) =>
    meta.rateLimit
      ? 'Rate limit exceeded'
      : 'This key has too many reads in flight that need real database work (' +
        (meta.expensiveRead === 'misses' ? 'answers not in the cache' : 'every read of this operation') +
        '); retry after `Retry-After` seconds',
  500: ({ codes }) =>
    codes.includes('PROCESSING_FAILED')
      ? 'The resume could not be stored or queued (`PROCESSING_FAILED`), or an unexpected error'
      : 'Unexpected error',
  503: ({ codes }) =>
    codes.includes('SERVER_BUSY')
      ? 'The database is unreachable, or (extension, `ServerBusyError`, before the scope check) the process holds as many request bodies as it may at once, ' +
        'or this key or this client address already holds its share (a quarter) of them; retry after `Retry-After` seconds'
      : 'The database is unreachable; retry later',
};

/** The headers of an error answer: those of the checks that ran before it (rate limit), a replay, a retry. */
function errorHeaders(status: number, { meta, codes }: TErrorAnswer): TJson {
  const rateLimited = meta.rateLimit !== undefined;
  // After the rate-limit check every answer carries the rate-limit headers; 400/413 (body syntax and size) come before it.
  const afterLimit = rateLimited ? RATE_LIMIT_HEADERS(true) : {};
  const replay = meta.idempotent ? { 'Idempotent-Replayed': REPLAYED_HEADER } : {};
  switch (status) {
    case 400:
      return rateLimited ? { ...RATE_LIMIT_HEADERS(false), ...replay } : {};
    case 404:
    case 409:
      return { ...afterLimit, ...replay };
    case 410:
    case 422:
      return afterLimit;
    case 429:
      return rateLimited ? RETRY_HEADERS : { 'Retry-After': RETRY_HEADERS['Retry-After'] };
    case 500:
      return rateLimited ? RATE_LIMIT_HEADERS(false) : {};
    case 503:
      return {
        'Retry-After': {
          description: codes.includes('SERVER_BUSY')
            ? `Seconds to wait: ${RETRY_AFTER_SECONDS.SERVER_BUSY} with \`ServerBusyError\`, ${RETRY_AFTER_SECONDS.SERVICE_UNAVAILABLE} while the database is unavailable (a failover)`
            : `Seconds to wait while the database is unavailable (a failover): ${RETRY_AFTER_SECONDS.SERVICE_UNAVAILABLE}`,
          required: false,
          schema: { type: 'integer', minimum: 1 },
          'x-extension': true,
        },
      };
    default:
      return {};
  }
}

/** The success answer of an operation (200/201/202, with 200 `Valid.` for a dry run and 304 for a GET). */
function successResponses(method: string, op: TJson, meta: TMeta): TJson {
  const success = String(meta.successStatus ?? 200);
  if (success === '204')
    return { '204': { description: 'Done. No body.', headers: { 'X-Request-Id': REQUEST_ID_HEADER } } };
  const generated = op.responses?.['200'] ?? op.responses?.[success] ?? {};
  let successSchema = generated.content?.['application/json']?.schema ?? {};
  // With validate_only the output is a union of the real answer and `Valid.` (200, below).
  const dryRun = (meta.queryParameters ?? []).includes('validate_only');
  if (dryRun) successSchema = (successSchema.anyOf ?? successSchema.oneOf)?.[0] ?? successSchema;
  addFormats(successSchema);
  const successHeaders: TJson = {};
  if (method === 'get') {
    successHeaders.ETag = ETAG_HEADER;
    successHeaders['Cache-Control'] = {
      description: 'Always `private, max-age=0, must-revalidate`',
      schema: { type: 'string' },
    };
  }
  if (meta.rateLimit !== undefined) Object.assign(successHeaders, RATE_LIMIT_HEADERS(true));
  if (meta.idempotent) successHeaders['Idempotent-Replayed'] = REPLAYED_HEADER;
  const successText = { '200': 'Success', '201': 'Created', '202': 'Accepted for processing' }[success] ?? 'Success';
  const responses: TJson = { [success]: jsonResponse(successText, successSchema, successHeaders) };
  if (dryRun) {
    responses['200'] = {
      ...jsonResponse(
        '(extension) `validate_only=true`: every check passed; nothing was stored',
        ref('Valid'),
        successHeaders,
      ),
      'x-extension': true,
    };
  }
  if (method === 'get') {
    responses['304'] = {
      description: '(extension) Not modified: the `If-None-Match` header matches the current ETag. No body.',
      headers: { 'X-Request-Id': REQUEST_ID_HEADER, ETag: ETAG_HEADER },
      'x-extension': true,
    };
  }
  return responses;
}

/** Every answer of an operation: its success, and exactly the errors its meta declares (`documentedErrors`). */
export function apiResponses(method: string, op: TJson, meta: TMeta, validatesInput: boolean): TJson {
  const responses = successResponses(method, op, meta);
  const scopes = meta.scope ? [meta.scope, ...(meta.otherScopes ?? [])] : [];
  for (const [status, codes] of documentedErrors(meta, { validatesInput })) {
    const answer = { meta, codes };
    const describe = ERROR_DESCRIPTIONS[status];
    if (!describe) throw new Error(`no OpenAPI description of error status ${status}`);
    const response = jsonResponse(describe(answer), errorBodiesSchema(codes, scopes), errorHeaders(status, answer));
    responses[String(status)] = codes.every((code) => EXTENSION_CODES.has(code))
      ? { ...response, 'x-extension': true }
      : response;
  }
  return responses;
}
