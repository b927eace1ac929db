/**
 * The one error type domain code throws. Each code has a fixed HTTP status and a documented public
 * body; the cause (for logs) never reaches a client.
 */
export const APP_ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  API_ACCESS_DISABLED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  CROSS_SITE_REQUEST: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  VALIDATION_FAILED: 422,
  MALFORMED_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_TIMEOUT: 408,
  UNSUPPORTED_MEDIA_TYPE: 415,
  JSON_BODY_REQUIRED: 415,
  VACANCY_CLOSED: 400,
  VACANCY_NOT_FOUND: 404,
  DUPLICATE_APPLICATION: 409,
  PROCESSING_FAILED: 500,
  TOO_MANY_ATTEMPTS: 429,
  CURSOR_EXPIRED: 410,
  SERVICE_UNAVAILABLE: 503,
  SERVER_BUSY: 503,
  INTERNAL: 500,
} as const;

export type TAppErrorCode = keyof typeof APP_ERROR_STATUS;
export type TFieldErrors = Record<string, string[]>;

const DEFAULT_MESSAGES: Record<TAppErrorCode, string> = {
  UNAUTHENTICATED: 'Unauthenticated.',
  API_ACCESS_DISABLED: 'API access is not enabled for this tenant.',
  ORIGIN_NOT_ALLOWED: 'This origin is not allowed for this key.',
  INSUFFICIENT_SCOPE: 'This API key does not have the required scope.',
  FORBIDDEN: 'This action is unauthorized.',
  // The dashboard's guard against cross-site request forgery.
  CROSS_SITE_REQUEST: 'Cross-site request refused.',
  NOT_FOUND: 'Resource not found.',
  METHOD_NOT_ALLOWED: 'Method not allowed.',
  VALIDATION_FAILED: 'The given data was invalid.',
  MALFORMED_JSON: 'Malformed JSON body.',
  PAYLOAD_TOO_LARGE: 'Payload too large.',
  REQUEST_TIMEOUT: 'Request Timeout.',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported Media Type.',
  JSON_BODY_REQUIRED: 'Requests that change data must have a JSON body.',
  VACANCY_CLOSED: 'This vacancy no longer accepts applications.',
  VACANCY_NOT_FOUND: 'Vacancy not found',
  DUPLICATE_APPLICATION: 'An application for this vacancy with this email already exists.',
  PROCESSING_FAILED: 'An unexpected error occurred while processing the resume.',
  TOO_MANY_ATTEMPTS: 'Too Many Attempts.',
  CURSOR_EXPIRED: 'Cursor expired.',
  SERVICE_UNAVAILABLE: 'Service Unavailable.',
  SERVER_BUSY: 'The server is busy reading other request bodies; retry shortly.',
  INTERNAL: 'Server Error.',
};

/** Codes answered with a `Retry-After` header (seconds): the client may send the same request again after it. */
export const RETRY_AFTER_SECONDS: Partial<Record<TAppErrorCode, number>> = { SERVER_BUSY: 2, SERVICE_UNAVAILABLE: 2 };

/** Codes whose public body carries the machine-readable `error` field. */
const CODES_WITH_ERROR_FIELD = new Set<TAppErrorCode>([
  'ORIGIN_NOT_ALLOWED',
  'INSUFFICIENT_SCOPE',
  'VACANCY_CLOSED',
  'VACANCY_NOT_FOUND',
  'DUPLICATE_APPLICATION',
  'PROCESSING_FAILED',
  'CURSOR_EXPIRED',
]);

export type TErrorBody = {
  message: string;
  error?: string;
  required_scope?: string;
  /** The existing application of a DUPLICATE_APPLICATION. */
  application_id?: number;
  errors?: TFieldErrors;
};

export class AppError extends Error {
  readonly code: TAppErrorCode;
  readonly status: number;
  readonly fieldErrors?: TFieldErrors;
  readonly requiredScope?: string;
  readonly applicationId?: number;
  /** For the log only (what went wrong inside); the client sees `message`. */
  readonly detail?: string;
  /** Headers of this one answer (e.g. the `X-RateLimit-*` of a window that is not an API key's). */
  readonly #headers?: Record<string, string>;

  constructor(
    code: TAppErrorCode,
    options: {
      message?: string;
      fieldErrors?: TFieldErrors;
      requiredScope?: string;
      applicationId?: number;
      cause?: unknown;
      detail?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(options.message ?? DEFAULT_MESSAGES[code], { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = APP_ERROR_STATUS[code];
    this.fieldErrors = options.fieldErrors;
    this.requiredScope = options.requiredScope;
    this.applicationId = options.applicationId;
    this.detail = options.detail;
    this.#headers = options.headers;
  }

  /** Headers that belong to this answer whatever the operation (`Retry-After` of a shed request), and its own. */
  headers(): Record<string, string> {
    const retryAfter = RETRY_AFTER_SECONDS[this.code];
    return { ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }), ...this.#headers };
  }

  /** A 422 on one or more fields. */
  static validation(fieldErrors: TFieldErrors): AppError {
    return new AppError('VALIDATION_FAILED', { fieldErrors });
  }

  static insufficientScope(scope: string): AppError {
    return new AppError('INSUFFICIENT_SCOPE', {
      message: `This API key does not have the required scope: ${scope}.`,
      requiredScope: scope,
    });
  }

  /** The documented public body; never includes the cause. */
  toBody(): TErrorBody {
    const body: TErrorBody = { message: this.message };
    if (CODES_WITH_ERROR_FIELD.has(this.code)) body.error = this.code;
    if (this.requiredScope) body.required_scope = this.requiredScope;
    if (this.applicationId !== undefined) body.application_id = this.applicationId;
    if (this.fieldErrors) body.errors = this.fieldErrors;
    return body;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
