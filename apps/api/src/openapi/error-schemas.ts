import { AppError, type TAppErrorCode } from '@careers/core';

/** A JSON value of the document (the generator's output is untyped JSON). */
export type TJson = Record<string, any>;

/** A JSON body as a schema with every value fixed (the error bodies are constant strings). */
export function fixedBodySchema(body: Record<string, string>): TJson {
  return {
    type: 'object',
    required: Object.keys(body),
    additionalProperties: false,
    properties: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, { type: 'string', const: value }])),
    example: body,
  };
}

/** The exact public body of one error code. */
function errorBodySchema(code: TAppErrorCode): TJson {
  return fixedBodySchema(new AppError(code).toBody() as unknown as Record<string, string>);
}

export const ERROR_SCHEMAS: Record<string, TAppErrorCode> = {
  UnauthenticatedError: 'UNAUTHENTICATED',
  ApiAccessDisabledError: 'API_ACCESS_DISABLED',
  OriginNotAllowedError: 'ORIGIN_NOT_ALLOWED',
  NotFoundError: 'NOT_FOUND',
  MethodNotAllowedError: 'METHOD_NOT_ALLOWED',
  MalformedJsonError: 'MALFORMED_JSON',
  PayloadTooLargeError: 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaTypeError: 'UNSUPPORTED_MEDIA_TYPE',
  ServerBusyError: 'SERVER_BUSY',
  RequestTimeoutError: 'REQUEST_TIMEOUT',
  VacancyClosedError: 'VACANCY_CLOSED',
  VacancyNotFoundError: 'VACANCY_NOT_FOUND',
  ProcessingFailedError: 'PROCESSING_FAILED',
  TooManyAttemptsError: 'TOO_MANY_ATTEMPTS',
  CursorExpiredError: 'CURSOR_EXPIRED',
  ServiceUnavailableError: 'SERVICE_UNAVAILABLE',
  ServerError: 'INTERNAL',
};
/** The component schema of each code's body (the ones with variable parts are written out in `componentSchemas`). */
const SCHEMA_OF_CODE = new Map<TAppErrorCode, string>([
  ...Object.entries(ERROR_SCHEMAS).map(([name, code]) => [code, name] as const),
  ['DUPLICATE_APPLICATION', 'DuplicateApplicationError'],
  ['VALIDATION_FAILED', 'ValidationError'],
]);

export function componentSchemas(): TJson {
  const schemas: TJson = {
    Error: {
      type: 'object',
      description: 'The shape every error body has',
      required: ['message'],
      properties: {
        message: { type: 'string' },
        error: { type: 'string', description: 'Machine-readable code (some errors)' },
        required_scope: { type: 'string', description: 'With INSUFFICIENT_SCOPE' },
        errors: {
          type: 'object',
          description: 'With 422: field path → messages',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    ValidationError: {
      type: 'object',
      description:
        'An invalid query, path or body value. `errors` maps dotted field paths (`per_page`, `candidate.email`, `tags.0`, `body`) to messages.',
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
      example: {
        message: new AppError('VALIDATION_FAILED').message,
        errors: { per_page: ['The per page must not be greater than 100.'] },
      },
    },
  };
  for (const [name, code] of Object.entries(ERROR_SCHEMAS)) schemas[name] = errorBodySchema(code);
  const duplicate = new AppError('DUPLICATE_APPLICATION', { applicationId: 1 }).toBody();
  schemas.DuplicateApplicationError = {
    ...fixedBodySchema({ message: duplicate.message, error: duplicate.error! }),
    required: ['message', 'error', 'application_id'],
    description:
      '(extension) The tenant rejects duplicate applications and this vacancy already has one with this email',
    example: duplicate,
  };
  schemas.DuplicateApplicationError.properties.application_id = {
    type: 'integer',
    description: 'The existing application',
  };
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
export function insufficientScopeSchema(scope: string): TJson {
  return fixedBodySchema(AppError.insufficientScope(scope).toBody() as unknown as Record<string, string>);
}

export const ref = (name: string): TJson => ({ $ref: `#/components/schemas/${name}` });
/**
 * The body schema of an answer that carries one of `codes`: a 403 for a missing scope names the scope, so it has
 * one body per scope the operation may name.
 */
export function errorBodiesSchema(codes: TAppErrorCode[], scopes: string[]): TJson {
  const schemas = codes.flatMap((code) =>
    code === 'INSUFFICIENT_SCOPE' ? scopes.map(insufficientScopeSchema) : [ref(SCHEMA_OF_CODE.get(code) ?? 'Error')],
  );
  return schemas.length === 1 ? (schemas[0] as TJson) : { oneOf: schemas };
}
