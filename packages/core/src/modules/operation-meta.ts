import type { OpenApiMeta } from 'trpc-to-openapi';
import type { TAppErrorCode } from '../lib/errors.ts';
import type { TScope } from '../lib/scopes.ts';
import type { TRateLimitedOperation } from './rate-limits/rate-limit-buckets.ts';

/**
 * What an operation is — its one declaration (`.meta()` of its procedure, written in its schema file): the
 * middlewares, the REST facade and the OpenAPI renderer all read it. It lives with the modules, below trpc/, so a
 * module's schema file (meta and zod input/output) is part of the module that services may import.
 */
export type TMeta = OpenApiMeta & {
  /** Success status of a REST call (default 200). */
  successStatus?: 200 | 201 | 202 | 204;
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
  /**
   * Honour an `Idempotency-Key` header (extension): after the rate limit, before input validation. `'one-statement'`:
   * the operation can store the key's record in its own statement (`ctx.idempotency`, see IdempotencyClaim) and
   * declines when it cannot; otherwise it runs inside the key's transaction.
   */
  idempotent?: boolean | 'one-statement';
  /** An operation beyond the original interface (CONTRACT "(extension)"). */
  extension?: boolean;
};
