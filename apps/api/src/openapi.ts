import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { ZodType } from 'zod';
import {
  AppError,
  appRouter,
  listProcedures,
  type TMeta,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  RETRY_AFTER_SECONDS,
  isPublishableScope,
} from '@careers/core';
import { BODY_LIMIT_BYTES } from './rest/request-body.ts';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from './rest/facade.ts';

type TJson = Record<string, any>;
type TErrorCode = ConstructorParameters<typeof AppError>[0];

/** Paths of the interface that go beyond the original service (CONTRACT "(extension)"). */
const EXTENSION_OPERATIONS = new Set(['get /candidates/{id}', 'get /candidates/processing/{processing_id}', 'get /vacancies/{slug}/application-form']);
const EXTENSION_NOTE = 'This operation is an extension: it is not part of the original interface.';

/** Business-rule errors that replace the generic body of a status for one operation. */
const OPERATION_ERRORS: Record<string, Partial<Record<number, TErrorCode[]>>> = {
  'post /applications': { 400: ['MALFORMED_JSON', 'VACANCY_CLOSED'], 404: ['VACANCY_NOT_FOUND'] },
  'post /candidates': { 500: ['INTERNAL', 'PROCESSING_FAILED'] },
};

const TAGS = [
  { name: 'Health', description: 'Checking an API key' },
  { name: 'Vacancies', description: 'Published vacancies, their facets and canonical URLs' },
  { name: 'Locations', description: 'Office locations' },
  { name: 'Team', description: 'Employed team members' },
  { name: 'Articles', description: 'Published articles' },
  { name: 'Candidates', description: "A user's candidates and candidates from resumes" },
  { name: 'Applications', description: 'Job applications' },
  { name: 'Changes', description: 'The change feed of vacancies and articles' },
  { name: 'Operations', description: 'Documentation, liveness, readiness and metrics (extensions; no API key)' },
];

/** A JSON body as a schema with every value fixed (the error bodies are constant strings). */
function fixedBodySchema(body: Record<string, string>): TJson {
  return {
    type: 'object',
    required: Object.keys(body),
    additionalProperties: false,
    properties: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, { type: 'string', const: value }])),
    example: body,
  };
}

/** The exact public body of one error code. */
function errorBodySchema(code: TErrorCode): TJson {
  return fixedBodySchema(new AppError(code).toBody() as unknown as Record<string, string>);
}

const ERROR_SCHEMAS: Record<string, TErrorCode> = {
  UnauthenticatedError: 'UNAUTHENTICATED',
  ApiAccessDisabledError: 'API_ACCESS_DISABLED',
  OriginNotAllowedError: 'ORIGIN_NOT_ALLOWED',
  NotFoundError: 'NOT_FOUND',
  MethodNotAllowedError: 'METHOD_NOT_ALLOWED',
  MalformedJsonError: 'MALFORMED_JSON',
  PayloadTooLargeError: 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaTypeError: 'UNSUPPORTED_MEDIA_TYPE',
  ServerBusyError: 'SERVER_BUSY',
  VacancyClosedError: 'VACANCY_CLOSED',
  VacancyNotFoundError: 'VACANCY_NOT_FOUND',
  ProcessingFailedError: 'PROCESSING_FAILED',
  TooManyAttemptsError: 'TOO_MANY_ATTEMPTS',
  CursorExpiredError: 'CURSOR_EXPIRED',
  ServiceUnavailableError: 'SERVICE_UNAVAILABLE',
  ServerError: 'INTERNAL',
};
const SCHEMA_OF_CODE = new Map(Object.entries(ERROR_SCHEMAS).map(([name, code]) => [code, name]));

function componentSchemas(): TJson {
  const schemas: TJson = {
    Error: {
      type: 'object',
      description: 'The shape every error body has',
      required: ['message'],
      properties: {
        message: { type: 'string' },
        error: { type: 'string', description: 'Machine-readable code (some errors)' },
        required_scope: { type: 'string', description: 'With INSUFFICIENT_SCOPE' },
        errors: { type: 'object', description: 'With 422: field path → messages', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
    ValidationError: {
      type: 'object',
      description: 'An invalid query, path or body value. `errors` maps dotted field paths (`per_page`, `candidate.email`, `tags.0`, `body`) to messages.',
      required: ['message', 'errors'],
      additionalProperties: false,
      properties: {
        message: { type: 'string', const: new AppError('VALIDATION_FAILED').message },
        errors: {
          type: 'object',
          minProperties: 1,
          additionalProperties: { type: 'array', minItems: 1, items: { type: 'string' } },
        },
      },
      example: { message: new AppError('VALIDATION_FAILED').message, errors: { per_page: ['The per page must not be greater than 100.'] } },
    },
  };
  for (const [name, code] of Object.entries(ERROR_SCHEMAS)) schemas[name] = errorBodySchema(code);
  const duplicate = new AppError('DUPLICATE_APPLICATION', { applicationId: 1 }).toBody();
  schemas.DuplicateApplicationError = {
    ...fixedBodySchema({ message: duplicate.message, error: duplicate.error! }),
    required: ['message', 'error', 'application_id'],
    description: '(extension) The tenant rejects duplicate applications and this vacancy already has one with this email',
    example: duplicate,
  };
  schemas.DuplicateApplicationError.properties.application_id = { type: 'integer', description: 'The existing application' };
  schemas.Valid = {
    type: 'object',
    required: ['message'],
    additionalProperties: false,
    properties: { message: { type: 'string', const: 'Valid.' } },
    description: '(extension) The answer of `validate_only=true`: every check passed, nothing was stored',
  };
  return schemas;
}

/** The 403 body of a key that lacks `scope`. */
function insufficientScopeSchema(scope: string): TJson {
  return fixedBodySchema(AppError.insufficientScope(scope).toBody() as unknown as Record<string, string>);
}

const ref = (name: string): TJson => ({ $ref: `#/components/schemas/${name}` });
const oneOfRefs = (codes: TErrorCode[]): TJson => {
  const refs = codes.map((code) => ref(SCHEMA_OF_CODE.get(code) ?? 'Error'));
  return refs.length === 1 ? (refs[0] as TJson) : { oneOf: refs };
};

const REQUEST_ID_HEADER = {
  description: 'The request id: the client\'s `X-Request-Id` when it is 1–128 characters of `A-Z a-z 0-9 . _ : -`, else a generated UUID',
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};
const RATE_LIMIT_HEADERS = (required: boolean): TJson => ({
  'X-RateLimit-Limit': { description: 'Requests allowed per window', required, schema: { type: 'integer', minimum: 1 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', required, schema: { type: 'integer', minimum: 0 } },
});
const RETRY_HEADERS = {
  ...RATE_LIMIT_HEADERS(true),
  'Retry-After': { description: 'Seconds to wait (1–60)', required: true, schema: { type: 'integer', minimum: 1, maximum: 60 } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the window resets', required: true, schema: { type: 'integer', minimum: 0 } },
};
const ETAG_HEADER = {
  description: '(extension) Weak validator of the representation, computed without its view counters; send it back in `If-None-Match`.',
  required: true,
  schema: { type: 'string', pattern: '^W/".+"$' },
  'x-extension': true,
};
const REPLAYED_HEADER = {
  description: '(extension) `true` when this is the stored answer of an earlier request with the same `Idempotency-Key`',
  schema: { type: 'string', const: 'true' },
  'x-extension': true,
};
/** Query parameters of POST operations (meta `queryParameters`); the generator would put them in the body. */
const POST_QUERY_PARAMETERS: Record<string, TJson> = {
  validate_only: {
    in: 'query',
    name: 'validate_only',
    required: false,
    description:
      '(extension) `true` or `1`: run every check of a real request (authentication, scope, rate limit — it counts against it —, validation, ' +
      'existence, business rules) and answer 200 `{"message":"Valid."}` without storing anything and without an idempotency record. ' +
      '(`true`, `false`, `1` or `0`)',
    schema: { type: 'string', enum: ['true', 'false', '1', '0'], default: 'false' },
    'x-extension': true,
  },
};

/** Moves the operation's query parameters out of the generated request body into `parameters`. */
function moveQueryParameters(op: TJson, meta: TMeta): void {
  const names = meta.queryParameters ?? [];
  if (names.length === 0) return;
  const schema = op.requestBody?.content?.['application/json']?.schema;
  for (const name of names) {
    if (schema?.properties) delete schema.properties[name];
    if (Array.isArray(schema?.required)) schema.required = schema.required.filter((field: string) => field !== name);
    const parameter = POST_QUERY_PARAMETERS[name];
    if (!parameter) throw new Error(`no OpenAPI description of query parameter ${name}`);
    op.parameters = [...((op.parameters as TJson[]) ?? []), parameter];
  }
}

const IDEMPOTENCY_KEY_PARAMETER = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    '(extension) 1–255 printable ASCII characters. A retry with the same key and the same body within 24 hours replays the first response ' +
    '(marked `Idempotent-Replayed: true`) without a second effect; the same key with a different body is 422 on `idempotency_key`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]{1,255}$' },
  'x-extension': true,
};

/** CORS headers of an answer to a publishable key from one of its allowed origins (never to a secret key). */
const CORS_RESPONSE_HEADERS: TJson = {
  'Access-Control-Allow-Origin': {
    description: '(extension) With a publishable key from one of its allowed origins: that origin. Never `*`, never with a secret key.',
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
  Vary: { description: '(extension) `Origin`, with `Access-Control-Allow-Origin`', required: false, schema: { type: 'string', const: 'Origin' }, 'x-extension': true },
};

function jsonResponse(description: string, schema: TJson, headers: TJson = {}): TJson {
  return { description, headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...headers }, content: { 'application/json': { schema } } };
}

/** Descriptions of shared parameters whose schemas carry none. */
const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  page: 'Page number, from 1; a page past the end is an empty page',
  per_page: 'Items per page, 1 to 100',
  sort_direction: '`asc` or `desc`',
};

/** Digits-only integers of the query (`zQueryInt`) as the generator shows them. */
const isDigitsString = (schema: TJson): boolean => schema.type === 'string' && schema.pattern === '^\\d{1,15}$';
const MAX_DIGITS_INTEGER = 999_999_999_999_999;

/** The largest digit string a parameter's validator accepts (it accepts a contiguous range). */
function acceptedRange(field: ZodType | undefined): { minimum: number; maximum: number } {
  const accepts = (n: number) => field?.safeParse(String(n)).success ?? true;
  const minimum = accepts(0) ? 0 : 1;
  let low = minimum;
  let high = MAX_DIGITS_INTEGER;
  if (accepts(high)) return { minimum, maximum: high };
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (accepts(middle)) low = middle;
    else high = middle;
  }
  return { minimum, maximum: low };
}

/** Rewrites the generator's string encodings of query values into the types a client sends. */
function queryValueSchema(schema: TJson, field: ZodType | undefined): TJson {
  const { type } = schema;
  const stringOrNumber = Array.isArray(type) && type.length === 2 && type.includes('string') && type.includes('number');
  if (isDigitsString(schema) || stringOrNumber) return { ...(schema.description ? { description: schema.description } : {}), type: 'integer', ...acceptedRange(field) };
  if (schema.type === 'string' && Array.isArray(schema.enum) && [...schema.enum].sort().join() === '0,1,false,true') {
    const { enum: _enum, ...rest } = schema;
    return { ...rest, type: 'boolean' };
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: schema.anyOf.map((branch: TJson) => queryValueSchema(branch, undefined)) };
  if (schema.type === 'array' && schema.items) return { ...schema, items: queryValueSchema(schema.items, undefined) };
  return schema;
}

function defaultOf(field: ZodType | undefined): unknown {
  const parsed = field?.safeParse(undefined);
  return parsed?.success ? parsed.data : undefined;
}

function fixParameters(op: TJson, input: TJson | undefined, method: string): void {
  const shape = (input?.shape ?? {}) as Record<string, ZodType>;
  const parameters: TJson[] = [];
  for (const parameter of (op.parameters ?? []) as TJson[]) {
    if (parameter.in === 'header' && parameter.name === 'Idempotency-Key') continue;
    if (parameter.in === 'query' && method === 'post') {
      parameters.push(parameter);
      continue;
    }
    const field = shape[parameter.name];
    parameter.description ??= parameter.schema?.description ?? field?.description ?? PARAMETER_DESCRIPTIONS[parameter.name];
    if (parameter.in === 'path') {
      parameter.required = true;
      if (parameter.name === 'id') {
        parameter.schema = { type: 'integer', minimum: 0, description: parameter.schema?.description };
        parameter.description = `${parameter.description ?? 'The id'}. A value that is not an integer is 404.`;
      } else if (parameter.name === 'processing_id') {
        parameter.schema = { type: 'string', format: 'uuid', description: parameter.schema?.description };
        parameter.description = `${parameter.description ?? 'The processing id'}. A value that is not a UUID is 404.`;
      } else {
        // Any slug is looked up: one that names nothing (also an over-long one) is 404, never 422.
        delete parameter.schema?.maxLength;
      }
    }
    if (parameter.in === 'query') {
      parameter.schema = queryValueSchema(parameter.schema ?? {}, field);
      if (parameter.schema.type === 'boolean') parameter.description = `${parameter.description ?? ''} (\`true\`, \`false\`, \`1\` or \`0\`)`.trim();
      const fallback = defaultOf(field);
      if (fallback !== undefined && parameter.schema.default === undefined) parameter.schema.default = fallback;
      const arrayOnly = parameter.schema.type === 'array';
      const oneOrMany = Array.isArray(parameter.schema.anyOf) && parameter.schema.anyOf.some((branch: TJson) => branch.type === 'array');
      if (arrayOnly) parameter.name = `${parameter.name}[]`;
      if (arrayOnly || oneOrMany) {
        parameter.style = 'form';
        parameter.explode = true;
      }
      if (oneOrMany && !String(parameter.description ?? '').includes('[]')) {
        parameter.description = `${parameter.description ?? 'One id or several'}; repeat the parameter (or use \`${parameter.name}[]\`) for several values.`;
      }
    }
    parameters.push(parameter);
  }
  if (method === 'post') parameters.unshift(IDEMPOTENCY_KEY_PARAMETER);
  op.parameters = parameters;
}

/** Adds the formats the generator cannot see (timestamps are ISO-8601 UTC, pagination links are absolute URLs). */
function addFormats(schema: unknown, key = '', parent = ''): void {
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
      for (const [property, propertySchema] of Object.entries(child as TJson)) addFormats(propertySchema, property, key);
    } else if (childKey === 'items' || childKey === 'anyOf' || childKey === 'oneOf' || childKey === 'allOf') {
      addFormats(child, key, parent);
    }
  }
}

function operationDescription(op: TJson, meta: TMeta, isExtension: boolean): string {
  const parts = [String(op.description ?? '').trim()];
  if (isExtension) parts.push(EXTENSION_NOTE);
  parts.push(meta.scope ? `Required scope: \`${meta.scope}\`.` : 'Required scope: none (any valid API key).');
  return parts.filter(Boolean).join('\n\n');
}

function apiResponses(method: string, key: string, op: TJson, meta: TMeta, hasInput: boolean, hasNotFound: boolean): TJson {
  const success = String(meta.successStatus ?? 200);
  const generated = op.responses?.['200'] ?? op.responses?.[success] ?? {};
  let successSchema = generated.content?.['application/json']?.schema ?? {};
  // With validate_only the output is a union of the real answer and `Valid.` (200, below).
  const dryRun = (meta.queryParameters ?? []).includes('validate_only');
  if (dryRun) successSchema = (successSchema.anyOf ?? successSchema.oneOf)?.[0] ?? successSchema;
  addFormats(successSchema);
  const rateLimited = meta.rateLimit !== undefined;
  const successHeaders: TJson = {};
  if (method === 'get') {
    successHeaders.ETag = ETAG_HEADER;
    successHeaders['Cache-Control'] = { description: 'Always `private, max-age=0, must-revalidate`', schema: { type: 'string' } };
  }
  if (rateLimited) Object.assign(successHeaders, RATE_LIMIT_HEADERS(true));
  if (method === 'post') successHeaders['Idempotent-Replayed'] = REPLAYED_HEADER;
  const successText = { '200': 'Success', '201': 'Created', '202': 'Accepted for processing' }[success] ?? 'Success';
  const responses: TJson = { [success]: jsonResponse(successText, successSchema, successHeaders) };
  if (dryRun) {
    responses['200'] = {
      ...jsonResponse('(extension) `validate_only=true`: every check passed; nothing was stored', ref('Valid'), successHeaders),
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
  const errors = OPERATION_ERRORS[key] ?? {};
  // After the rate-limit check every answer carries the rate-limit headers; 400/413 (body syntax and size) come before it.
  const afterLimit = rateLimited ? RATE_LIMIT_HEADERS(true) : {};
  const replay = method === 'post' ? { 'Idempotent-Replayed': REPLAYED_HEADER } : {};
  if (method === 'post') {
    const codes = errors[400] ?? ['MALFORMED_JSON'];
    const description = codes.includes('VACANCY_CLOSED')
      ? 'Malformed JSON body (no rate-limit headers), or the vacancy no longer accepts applications (`VACANCY_CLOSED`)'
      : 'Malformed JSON body';
    responses['400'] = jsonResponse(description, oneOfRefs(codes), rateLimited ? { ...RATE_LIMIT_HEADERS(false), ...replay } : {});
  }
  responses['401'] = jsonResponse('Missing, unknown, malformed or revoked API key (the same body in every case)', ref('UnauthenticatedError'));
  responses['403'] = jsonResponse(
    (meta.scope ? 'The tenant has API access switched off, the key lacks the required scope' : 'The tenant has API access switched off') +
      ', or (`ORIGIN_NOT_ALLOWED`) the key is publishable and the request has no `Origin` or one the key does not allow',
    { oneOf: [ref('ApiAccessDisabledError'), ref('OriginNotAllowedError'), ...(meta.scope ? [meta.scope, ...(meta.otherScopes ?? [])].map(insufficientScopeSchema) : [])] },
  );
  if (hasNotFound || errors[404]) {
    const codes = errors[404] ?? ['NOT_FOUND'];
    const description = codes.includes('VACANCY_NOT_FOUND')
      ? 'The vacancy does not exist, is not visible, or belongs to another tenant (`VACANCY_NOT_FOUND`)'
      : 'Resource not found: unknown, invisible, or another tenant\'s';
    responses['404'] = jsonResponse(description, oneOfRefs(codes), { ...afterLimit, ...replay });
  }
  if (method === 'post') {
    responses['413'] = jsonResponse(`Body larger than 40 MiB, or with more than ${MAX_JSON_VALUES} JSON values`, ref('PayloadTooLargeError'));
    responses['415'] = {
      ...jsonResponse('(extension) The body is compressed (`Content-Encoding` other than `identity`): send it uncompressed', ref('UnsupportedMediaTypeError')),
      'x-extension': true,
    };
  }
  if ((meta.errorStatuses ?? []).includes(409)) {
    responses['409'] = {
      ...jsonResponse(
        '(extension) The tenant rejects duplicate applications (`duplicate_applications: "reject"`) and this vacancy already has an application with this email (case-insensitive)',
        ref('DuplicateApplicationError'),
        { ...afterLimit, ...replay },
      ),
      'x-extension': true,
    };
  }
  if ((meta.errorStatuses ?? []).includes(410)) {
    responses['410'] = jsonResponse('The cursor is older than the retention (at least 30 days): read again without `after`', ref('CursorExpiredError'), afterLimit);
  }
  if (hasInput) responses['422'] = jsonResponse('Validation failed', ref('ValidationError'), afterLimit);
  if (rateLimited) responses['429'] = jsonResponse('Rate limit exceeded', ref('TooManyAttemptsError'), RETRY_HEADERS);
  else if (meta.expensiveRead) {
    responses['429'] = jsonResponse(
      'This key has too many reads in flight that need real database work (' +
        (meta.expensiveRead === 'misses' ? 'answers not in the cache' : 'every read of this operation') +
        '); retry after `Retry-After` seconds',
      ref('TooManyAttemptsError'),
      { 'Retry-After': RETRY_HEADERS['Retry-After'] },
    );
  }
  const serverCodes = errors[500] ?? ['INTERNAL'];
  responses['500'] = jsonResponse(
    serverCodes.includes('PROCESSING_FAILED') ? 'The resume could not be stored or queued (`PROCESSING_FAILED`), or an unexpected error' : 'Unexpected error',
    oneOfRefs(serverCodes),
    rateLimited ? RATE_LIMIT_HEADERS(false) : {},
  );
  responses['503'] =
    method === 'post'
      ? jsonResponse(
          'The database is unreachable, or (extension, `ServerBusyError`, before the scope check) the process holds as many request bodies as it may at once; retry after `Retry-After` seconds',
          { oneOf: [ref('ServiceUnavailableError'), ref('ServerBusyError')] },
          {
            'Retry-After': {
              description: `With \`ServerBusyError\`: seconds to wait (${RETRY_AFTER_SECONDS.SERVER_BUSY})`,
              required: false,
              schema: { type: 'integer', minimum: 1 },
              'x-extension': true,
            },
          },
        )
      : jsonResponse('The database is unreachable; retry later', ref('ServiceUnavailableError'));
  return responses;
}

/** The operations of the facade's neighbours (no API key): documentation, liveness, readiness (metrics have their own port). */
function operationsPaths(): TJson {
  const status = (value: string) => ({
    type: 'object',
    required: ['status'],
    additionalProperties: false,
    properties: { status: { type: 'string', const: value } },
  });
  const base = (operationId: string, summary: string, description: string): TJson => ({
    operationId,
    summary,
    description: `${description}\n\n${EXTENSION_NOTE}\n\nRequired scope: none (no API key).`,
    tags: ['Operations'],
    security: [],
    'x-extension': true,
  });
  const serverError = jsonResponse('Unexpected error', ref('ServerError'));
  return {
    '/openapi.json': {
      get: {
        ...base('operations-openapi', 'This OpenAPI document', 'The OpenAPI 3.1 document of this interface.'),
        responses: {
          '200': jsonResponse('The document', { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' } } }),
          '500': serverError,
        },
      },
    },
    '/docs': {
      get: {
        ...base('operations-docs', 'Browsable reference', 'An HTML reference of this document (Swagger UI). `/docs` redirects to `/docs/`.'),
        responses: {
          '200': { description: 'The HTML page', headers: { 'X-Request-Id': REQUEST_ID_HEADER }, content: { 'text/html': { schema: { type: 'string' } } } },
          '301': { description: 'Redirect to `/docs/`', headers: { 'X-Request-Id': REQUEST_ID_HEADER, Location: { required: true, schema: { type: 'string' } } } },
          '500': serverError,
        },
      },
    },
    '/livez': {
      get: {
        ...base('operations-livez', 'Liveness', 'Answers while the process runs, whether or not the database is reachable.'),
        responses: { '200': jsonResponse('The process is alive', status('ok')), '500': serverError },
      },
    },
    '/readyz': {
      get: {
        ...base('operations-readyz', 'Readiness', 'Answers 200 when the database is reachable, else 503 (take the process out of the load balancer).'),
        responses: {
          '200': jsonResponse('Ready to serve', status('ok')),
          '500': serverError,
          '503': jsonResponse('The database is unreachable', ref('ServiceUnavailableError')),
        },
      },
    },
  };
}

const DOCUMENT_DESCRIPTION = [
  'Per-tenant API for career websites: published vacancies with facets, locations, team members, articles, applications and candidates. ' +
    'Every request carries `Authorization: Bearer <API key>`; each operation names the scope its key needs.',
  'Checks run in this order: route (an unknown path is 404 `NotFoundError` even without a key; a known path with another method is 405 ' +
    '`MethodNotAllowedError` with an `Allow` header) → authentication (401) → tenant API access (403) → allowed origin of a publishable key (403 `ORIGIN_NOT_ALLOWED`) → body syntax and size (400/413) → scope (403) → ' +
    'rate limit (429) → validation (422) → existence and business rules (404/400/409).',
  'Request bodies (extension, `x-body-limits`): JSON up to 40 MiB, checked while it arrives and parsed only after the scope and rate-limit checks. ' +
    `A compressed body (\`Content-Encoding\` other than \`identity\`) is 415, more than ${MAX_JSON_VALUES} JSON values 413, nesting deeper than ${MAX_JSON_DEPTH} levels 422 \`errors.body\` ` +
    '(reported in the place of validation, after the rate-limit check); a process that holds too many bodies at once answers 503 `ServerBusyError` with `Retry-After`. ' +
    'NUL characters and unpaired surrogates are refused in every string of a body (422 on that field; in `vacancy` of POST /applications: 404 `VACANCY_NOT_FOUND`).',
  'Unknown query parameters are ignored. Booleans in the query accept `true`, `false`, `1` and `0`; integers accept digits only. ' +
    'Array parameters are sent as `name[]=1&name[]=2`. A request line plus headers over 16 KiB is refused with 431 (no body) before any of this.',
  'Browsers (`x-cors`): a career site calls the API straight from the page with a publishable key (`pk_live_…`/`pk_test_…`, scheme ' +
    '`publishableKey`), created with its allowed origins and only the scopes vacancies:read, locations:read, team:read, articles:read and ' +
    'applications:write. A request with a publishable key from an origin it does not allow (or without `Origin`) is 403 `ORIGIN_NOT_ALLOWED`, ' +
    'checked right after tenant API access. A preflight `OPTIONS` on any path answers 204 for any origin (it carries no key); the answers to a ' +
    'publishable key from an allowed origin, errors included, carry `Access-Control-Allow-Origin` (that origin), `Vary: Origin` and ' +
    '`Access-Control-Expose-Headers`. Secret keys (`ck_…`, scheme `bearerAuth`) never get CORS headers: keep them on a server. ' +
    'With a publishable key, POST /applications is also limited per client address (10 per minute per address and key; IPv6 by /64); ' +
    'the rate-limit headers show the tighter of the two.',
  'Extensions (marked `x-extension`): the `Idempotency-Key` header, conditional GET (`ETag`/`304`), GET /candidates/{id}, ' +
    'GET /candidates/processing/{processing_id}, GET /vacancies/{slug}/application-form with `answers` on POST /applications, `validate_only` on ' +
    'POST /applications and POST /candidates, 409 `DUPLICATE_APPLICATION` (tenant setting `duplicate_applications`) and the operations endpoints ' +
    '(/openapi.json, /docs, /livez, /readyz; Prometheus metrics are served on a separate port, METRICS_PORT).',
  'Every 422 lists every invalid field at once: unknown filter ids (GET) and answers checked against the named vacancy\'s questions (POST /applications) ' +
    'are reported together with the other invalid values.',
].join('\n\n');

/**
 * The OpenAPI 3.1 document of the v1 interface, generated from core's procedures and then corrected
 * to what the REST facade really does: statuses, exact error bodies, headers, parameter types.
 */
export function buildOpenApiDocument(publicUrl?: string): TJson {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Careers API',
    version: '1.0.0',
    baseUrl: `${publicUrl?.replace(/\/+$/, '') ?? ''}/v1`,
    description: DOCUMENT_DESCRIPTION,
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'A secret tenant API key (`ck_live_…`): for servers only, never in a browser (its answers carry no CORS headers).',
      },
      publishableKey: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A publishable key (`pk_live_…` or `pk_test_…`) for a career site in the browser: bound to allowed origins (403 `ORIGIN_NOT_ALLOWED` ' +
          'from any other, or without `Origin`), with only the public scopes and applications:write.',
      },
    },
  }) as unknown as TJson;

  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs?: unknown[] } }>;
  const operations = new Map<string, { meta: TMeta; input: TJson | undefined }>();
  for (const { procedurePath, meta } of listProcedures()) {
    if (!meta?.openapi) continue;
    const input = procedures[procedurePath]?._def.inputs?.[0] as TJson | undefined;
    operations.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, { meta, input });
  }

  for (const [path, item] of Object.entries(document.paths as TJson)) {
    for (const [method, operation] of Object.entries(item as TJson)) {
      const key = `${method} ${path}`;
      const found = operations.get(key);
      if (!found) continue;
      const { meta, input } = found;
      const op = operation as TJson;
      const isExtension = EXTENSION_OPERATIONS.has(key);
      moveQueryParameters(op, meta);
      fixParameters(op, input, method);
      const hasInput = method === 'post' || (op.parameters as TJson[]).some((parameter) => parameter.in === 'query');
      const hasNotFound = path.includes('{') || (meta.errorStatuses ?? []).includes(404);
      op.responses = apiResponses(method, key, op, meta, hasInput, hasNotFound);
      // Every answer after authentication (not a 401: an unknown key allows no origin) to a publishable key's origin.
      for (const [status, response] of Object.entries(op.responses as TJson)) {
        if (status !== '401') (response as TJson).headers = { ...(response as TJson).headers, ...CORS_RESPONSE_HEADERS };
      }
      op.description = operationDescription(op, meta, isExtension);
      // A publishable key can call what needs no scope or a public one; never the candidates:* operations.
      op.security = !meta.scope || isPublishableScope(meta.scope) ? [{ bearerAuth: [] }, { publishableKey: [] }] : [{ bearerAuth: [] }];
      if (meta.scope) op['x-required-scope'] = meta.scope;
      if (isExtension) op['x-extension'] = true;
    }
  }
  Object.assign(document.paths, operationsPaths());
  document.tags = TAGS;
  document['x-cors'] = {
    preflight: { status: 204, allowOrigin: 'the request\'s Origin (never *)', allowHeaders: CORS_ALLOWED_HEADERS, maxAge: CORS_MAX_AGE_SECONDS, vary: 'Origin' },
    actualResponses: { keyKinds: ['publishable'], allowOrigin: "the key's allowed origin that sent the request", vary: 'Origin', exposeHeaders: CORS_EXPOSED_HEADERS },
    secretKeys: 'never',
  };
  document['x-body-limits'] = { maxBytes: BODY_LIMIT_BYTES, maxDepth: MAX_JSON_DEPTH, maxValues: MAX_JSON_VALUES, contentEncoding: ['identity'] };
  document.components = {
    ...document.components,
    schemas: componentSchemas(),
    responses: {
      NotFound: jsonResponse('No operation has this path (also without an API key)', ref('NotFoundError')),
      MethodNotAllowed: jsonResponse('The path exists, the method does not', ref('MethodNotAllowedError'), {
        Allow: { description: 'The methods of the path', required: true, schema: { type: 'string' } },
      }),
      RequestHeaderFieldsTooLarge: {
        description: "The request line and headers exceed the HTTP server's 16 KiB limit; answered by the HTTP layer, without a body",
      },
    },
  };
  return document;
}
