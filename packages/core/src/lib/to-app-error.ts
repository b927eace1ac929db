import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { AppError } from './errors.ts';
import { fieldErrorsFromZod } from './validation.ts';
import { isDatabaseUnavailable } from './database-errors.ts';

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
    const issues = cause.issues
      .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    return new AppError('INTERNAL', {
      cause: error,
      detail: `${error instanceof Error ? error.message : 'validation failed'}: ${issues}`.slice(0, 1000),
    });
  }
  if (error instanceof TRPCError && error.code === 'NOT_FOUND') return new AppError('NOT_FOUND');
  // The transport's own refusals (a GET on a mutation, an `input` that is not JSON) are the client's mistakes.
  if (error instanceof TRPCError && error.code === 'METHOD_NOT_SUPPORTED')
    return new AppError('METHOD_NOT_ALLOWED', { cause: error });
  if (error instanceof TRPCError && error.code === 'PARSE_ERROR')
    return new AppError('MALFORMED_JSON', { cause: error });
  // A database that is down or too slow is a 503 the client may retry, not a server bug.
  if (isDatabaseUnavailable(cause)) return new AppError('SERVICE_UNAVAILABLE', { cause });
  return new AppError('INTERNAL', { cause: error });
}
