import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import type { TContext } from './context.ts';
import { AppError, type TAppErrorCode } from '../lib/errors.ts';
import { fieldErrorsFromZod } from '../lib/validation.ts';
import { isDatabaseUnavailable } from '../db/orm.ts';
import type { TScope } from '../lib/scopes.ts';
import type { TRateLimitedOperation } from '../modules/rate-limits/rate-limits.ts';

export type TMeta = OpenApiMeta & {
  /** Success status of a REST call (default 200). */
  successStatus?: 200 | 201 | 202;
  /** Scope the API key needs; `null`: any valid key (every REST operation says which). Documented in OpenAPI. */
  scope?: TScope | null;
  rateLimit?: TRateLimitedOperation;
  /**
   * A read that costs real database work and may be shed (429 with `Retry-After`) when its key has too many in
   * flight: `misses` when only content-cache misses do (the cache asks for the turn), `always` for uncached reads
   * (the procedure runs in a turn).
   */
  expensiveRead?: 'misses' | 'always';
  /**
   * Query parameters a POST operation takes (`validate_only`): the facade merges them into the input over the
   * body, so a body field of the same name never counts; OpenAPI documents them as query parameters.
   */
  queryParameters?: readonly string[];
  /**
   * The operation's own errors (existence and business rules), besides those every operation of its kind answers
   * (see `documentedErrors`): what the OpenAPI document lists per status.
   */
  errors?: readonly TAppErrorCode[];
  /** Further scopes a 403 may name (an operation whose entries each need a scope of their own). */
  otherScopes?: TScope[];
  /** Honour an `Idempotency-Key` header (extension): after the rate limit, before input validation. */
  idempotent?: boolean;
  /** An operation beyond the original interface (CONTRACT "(extension)"). */
  extension?: boolean;
};

/** Maps anything a procedure throws to the one public error type. */
export function toAppError(error: unknown): AppError {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof AppError) return cause;
  // Only the input parser's failure (BAD_REQUEST) is the client's; a ZodError anywhere else — the output
  // parser above all — is a bug of ours: 500 with the issues in the log, never paths in a 422.
  if (error instanceof TRPCError && error.code === 'BAD_REQUEST' && cause instanceof ZodError) {
    return AppError.validation(fieldErrorsFromZod(cause));
  }
  if (cause instanceof ZodError) {
    const issues = cause.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`).join('; ');
    return new AppError('INTERNAL', { cause: error, detail: `${error instanceof Error ? error.message : 'validation failed'}: ${issues}`.slice(0, 1000) });
  }
  if (error instanceof TRPCError && error.code === 'NOT_FOUND') return new AppError('NOT_FOUND');
  // A database that is down or too slow is a 503 the client may retry, not a server bug.
  if (isDatabaseUnavailable(cause)) return new AppError('SERVICE_UNAVAILABLE', { cause });
  return new AppError('INTERNAL', { cause: error });
}

const t = initTRPC
  .context<TContext>()
  .meta<TMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const appError = toAppError(error);
      return {
        ...shape,
        message: appError.message,
        data: { ...shape.data, stack: undefined, httpStatus: appError.status, appCode: appError.code, body: appError.toBody() },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
