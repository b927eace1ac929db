import type { EntityManager } from '@mikro-orm/postgresql';
import { publicProcedure } from './init.ts';
import type { TContext } from './context.ts';
import type { TMeta } from '../modules/operation-meta.ts';
import { TRPCError } from '@trpc/server';
import { AppError, type TFieldErrors } from '../lib/errors.ts';
import { toAppError } from './init.ts';
import { requireActiveKey } from '../modules/api-keys/api-key.verifier.ts';
import { hasScope } from '../lib/scopes.ts';
import { tenantKysely } from '../db/kysely.ts';
import { hitRateLimit } from '../modules/rate-limits/rate-limit.service.ts';
import { UnparsedJsonBody } from '../lib/json-body.ts';
import { lazyChild } from '../lib/logger.ts';
import { runIdempotently } from '../modules/idempotency/idempotency.service.ts';
import type { IdempotencyClaim } from '../modules/idempotency/idempotency-claim.ts';

/**
 * API-key procedures. The checks run in CONTRACT's order before input validation:
 * authentication (401) → tenant API access (403) → allowed origin of a publishable key (403) → scope (403) →
 * rate limit (429, for a publishable key's writes also per client address), with the scope and the
 * rate-limited operation the procedure's meta declares (the same meta documents them).
 * Returns what narrows the context: the tenant, the key, and a Kysely that only sees that tenant's rows.
 */
async function checkApiKey(ctx: TContext, meta: TMeta | undefined) {
  const scope = meta?.scope;
  const rateLimit = meta?.rateLimit;
  const { tenant, apiKey } =
    ctx.verifiedKey ?? requireActiveKey(await ctx.services.keys.verify(ctx.authorization), ctx.origin);
  // `otherScopes`: the operation serves keys with any of the scopes (the procedure decides what each one may read).
  const accepted = scope ? [scope, ...(meta?.otherScopes ?? [])] : [];
  if (scope && !accepted.some((candidate) => hasScope(apiKey.scopes, candidate)))
    throw AppError.insufficientScope(scope);
  let giveBackRateLimit: (() => Promise<void>) | undefined;
  if (rateLimit) {
    // A publishable key is public (it sits in a web page): its writes count per client address, and per key only when stored.
    const state = await hitRateLimit(ctx, {
      apiKeyId: apiKey.id,
      operation: rateLimit,
      kind: apiKey.kind,
      clientAddress: apiKey.kind === 'publishable' ? ctx.clientIp : undefined,
    });
    ctx.response.headers['X-RateLimit-Limit'] = String(state.limit);
    ctx.response.headers['X-RateLimit-Remaining'] = String(state.remaining);
    if (state.exceeded) {
      ctx.response.headers['Retry-After'] = String(state.retryAfter);
      ctx.response.headers['X-RateLimit-Reset'] = String(state.resetAt);
      await giveBack(ctx, state.giveBack);
      throw new AppError('TOO_MANY_ATTEMPTS');
    }
    giveBackRateLimit = state.giveBack;
  }
  const log = lazyChild(ctx.log, { tenant: tenant.slug, api_key_id: apiKey.id });
  return { log, tenant, apiKey, db: tenantKysely(ctx.em, tenant.id), giveBackRateLimit };
}

/**
 * Gives a request's place in its key-wide window back (a publishable key's write that did not store). A failure only
 * leaves the place taken until the window ends: logged, never the request's answer.
 */
async function giveBack(ctx: TContext, giveBackRateLimit: (() => Promise<void>) | undefined): Promise<void> {
  if (!giveBackRateLimit) return;
  try {
    await giveBackRateLimit();
  } catch (error) {
    ctx.log.warn({ err: error }, 'could not give a rate-limit place back');
  }
}

/**
 * The stored answer of an Idempotency-Key, replayed without running the procedure. tRPC's public interface has no way
 * for a middleware to answer without calling the next one, so it is thrown, and the REST facade (the one caller of
 * API-key procedures) answers it as the success it is (`replayedAnswerOf`).
 */
export class ReplayedAnswer extends Error {
  readonly data: unknown;
  constructor(data: unknown) {
    super('replayed answer');
    this.data = data;
  }
}

/** The replayed answer a procedure call threw (tRPC hands it over as the cause of its own error), if it is one. */
export function replayedAnswerOf(error: unknown): ReplayedAnswer | undefined {
  if (error instanceof ReplayedAnswer) return error;
  const cause = error instanceof TRPCError ? error.cause : undefined;
  return cause instanceof ReplayedAnswer ? cause : undefined;
}

/** What an API-key procedure adds to the context. */
type TNarrowedContext = Omit<Awaited<ReturnType<typeof checkApiKey>>, 'giveBackRateLimit'> & {
  em: EntityManager;
  /** The Idempotency-Key the operation stores in its own statement (meta `idempotent: 'one-statement'`), if any. */
  idempotency?: IdempotencyClaim;
};

/** A body the transport read without parsing (UnparsedJsonBody) is built once the key's checks have passed. */
function parsedInput(raw: unknown): unknown {
  return raw instanceof UnparsedJsonBody ? raw.parse() : raw;
}

/** Whether a raw input asks for a dry run (`validate_only` true or 1; an invalid value is reported by validation). */
function isValidateOnly(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const value = (raw as Record<string, unknown>).validate_only;
  return value === true || value === 'true' || value === '1';
}

/**
 * Makes one 422 list every invalid field (CONTRACT "Errors and input, made exact"): when the input fails
 * validation, `collect` reports the errors only the database can find (unknown ids, answers against the named
 * vacancy) for the parts of the raw input that are valid, and they join the syntax errors. Call it on the result of
 * `next()` in a middleware placed before `.input()`.
 */
export async function withDatabaseFieldErrors<TResult extends { ok: boolean }>(
  result: TResult,
  collect: () => Promise<TFieldErrors>,
): Promise<TResult> {
  if (result.ok) return result;
  const error = (result as unknown as { error: unknown }).error;
  if (!(error instanceof TRPCError) || error.code !== 'BAD_REQUEST') return result;
  const invalid = toAppError(error);
  if (invalid.code !== 'VALIDATION_FAILED') return result;
  const merged: TFieldErrors = { ...invalid.fieldErrors };
  for (const [path, messages] of Object.entries(await collect())) merged[path] ??= messages;
  if (Object.keys(merged).length === Object.keys(invalid.fieldErrors ?? {}).length) return result;
  throw AppError.validation(merged);
}

/**
 * A procedure for API keys. Its meta (`.meta()`) is the one declaration of what the operation needs and does —
 * scope, rate-limited operation, idempotency, expensive reads, documented errors —; its middleware and the
 * OpenAPI document both read it.
 */
export function apiKeyProcedure() {
  // One middleware for the key, the body, expensive reads and Idempotency-Key: every tRPC middleware level copies the
  // call's options (and, with a context, the context) once more per request.
  return publicProcedure.use(async ({ ctx, path, meta, getRawInput, next }) => {
    const { giveBackRateLimit, ...narrowed } = await checkApiKey(ctx, meta);
    const run = async () => {
      const input = parsedInput(await getRawInput());
      const getInput = async () => input;
      const proceed = (em: EntityManager = ctx.em, idempotency?: IdempotencyClaim) => {
        const db = em === ctx.em ? narrowed.db : tenantKysely(em, narrowed.tenant.id);
        // tRPC takes a context and a raw input together at run time; its types offer one or the other.
        const options = { ctx: { ...narrowed, em, db, idempotency }, getRawInput: getInput };
        return next<TNarrowedContext>(options);
      };
      // Uncached reads run in a turn of the key's expensive-read share (cached ones ask for it on a miss only).
      if (meta?.expensiveRead === 'always') return ctx.services.reads.run({ ...ctx, ...narrowed }, () => proceed());
      // A dry run stores nothing, not even an idempotency record, and replays nothing.
      if (!meta?.idempotent || ctx.idempotencyKey === undefined || isValidateOnly(input)) return proceed();
      const outcome = await runIdempotently(ctx, {
        apiKeyId: narrowed.apiKey.id,
        operation: path,
        key: ctx.idempotencyKey,
        rawInput: input,
        response: ctx.response,
        successStatus: meta?.successStatus ?? 200,
        // The operation runs inside the key's transaction: its own em.transactional becomes a savepoint.
        execute: (em) => proceed(em),
        executeClaimed: meta?.idempotent === 'one-statement' ? (claim) => proceed(ctx.em, claim) : undefined,
      });
      if (!outcome.replayed) return outcome.result;
      // A replay answers without running the procedure (and without validating its input again).
      throw new ReplayedAnswer(outcome.data);
    };
    if (!giveBackRateLimit) return run();
    // A publishable key's write keeps its place in the key-wide window only when it stored: answered with the success
    // status, run and not replayed (CONTRACT: "only applications that were stored (201) count").
    let stored = false;
    try {
      const result = await run();
      const successStatus = meta?.successStatus ?? 200;
      // A replay throws ReplayedAnswer: it stored nothing now.
      stored = result.ok && (ctx.response.status ?? successStatus) === successStatus;
      return result;
    } finally {
      if (!stored) await giveBack(ctx, giveBackRateLimit);
    }
  });
}

export { publicProcedure };
