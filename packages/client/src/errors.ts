import type { components } from './generated/api.d.ts';

type TSchemas = components['schemas'];

/** Every error body the OpenAPI document describes (the generic `Error` shape and each fixed one). */
export type TErrorBody =
  | TSchemas['Error']
  | TSchemas['ValidationError']
  | Extract<TSchemas[keyof TSchemas], { message: string; error: string }>;

/** The machine-readable codes the document lists (`VACANCY_CLOSED`, `CURSOR_EXPIRED`, …). */
export type TErrorCode = Extract<TSchemas[keyof TSchemas], { message: string; error: string }>['error'];

/**
 * A documented error answer of the API: the HTTP status and its body as the document types it. `Body` is the
 * union of the error bodies of the operation that failed.
 */
export class CareersApiError<Body = TErrorBody> extends Error {
  readonly status: number;
  readonly body: Body;
  /** The `error` code of the body, when it has one. */
  readonly code: TErrorCode | undefined;
  /** With 422: field path (`candidate.email`, `per_page`) → messages. */
  readonly fieldErrors: Record<string, string[]> | undefined;
  /** Seconds to wait before retrying (429 and 503 answers carry `Retry-After`). */
  readonly retryAfter: number | undefined;
  readonly requestId: string | undefined;

  constructor(response: Response, body: Body) {
    const fields = (typeof body === 'object' && body !== null ? body : {}) as {
      message?: unknown;
      error?: unknown;
      errors?: unknown;
    };
    super(typeof fields.message === 'string' ? fields.message : `HTTP ${response.status}`);
    this.name = 'CareersApiError';
    this.status = response.status;
    this.body = body;
    this.code = typeof fields.error === 'string' ? (fields.error as TErrorCode) : undefined;
    this.fieldErrors =
      typeof fields.errors === 'object' && fields.errors !== null
        ? (fields.errors as Record<string, string[]>)
        : undefined;
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    this.retryAfter = Number.isFinite(retryAfter) ? retryAfter : undefined;
    this.requestId = response.headers.get('x-request-id') ?? undefined;
  }
}

export function isCareersApiError(value: unknown): value is CareersApiError {
  return value instanceof CareersApiError;
}
