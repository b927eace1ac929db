import type { EntityManager } from '@mikro-orm/postgresql';
import type { TOperatorContext } from '../service-context.ts';
import { APP_ERROR_STATUS, AppError, type TAppErrorCode, type TErrorBody } from '../../lib/errors.ts';
import { toAppError } from '../../lib/to-app-error.ts';
import { requestHash } from './request-hash.ts';
import { leanTransaction } from '../../db/fast-path/index.ts';
import { ClaimDeclined, IdempotencyClaim } from './idempotency-claim.ts';
import {
  deleteExpiredRecord,
  deleteExpiredRecords,
  findRecord,
  insertRecordIfAbsent,
  storeRecordResponse,
  type TRecord,
  type TRecordKey,
  type TStoredResponse,
} from './idempotency.repository.ts';

/**
 * Idempotency-Key (extension) for POST operations. The first request with a key inserts the key's record
 * and runs the operation in the SAME transaction, storing its response there before commit. So the record
 * and the effect commit (or vanish) together, and a concurrent request with the same key blocks on the
 * unique index inside PostgreSQL until the first one finishes; it then replays the stored response (or,
 * when the first one rolled back, becomes the first itself). Nothing is left half-done by a crash.
 *
 * An operation built for it (meta `idempotent: 'one-statement'`) first tries to store the record with its response in
 * its own statement, without that transaction (IdempotencyClaim): three round trips fewer. What it cannot take there —
 * a key with a record, a concurrent request with the key, a case its statement does not cover — it declines, and the
 * transaction above runs it; so every outcome is the same as above.
 *
 * The records' statements are in idempotency.repository.ts; the operation itself runs with its tenant's scoped handle.
 */

/** 1–255 printable ASCII characters. */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 1000;
/** Headers of the first response that describe this request, not the stored one. */
const FRESH_HEADERS = /^(x-ratelimit-|retry-after$)/i;
export const REPLAY_HEADER = 'Idempotent-Replayed';

/** What tRPC's `next()` resolves to, as far as this module needs it. */
export type TCallResult = { ok: true; data: unknown } | { ok: false; error: unknown };

/** The records belong to no tenant (per API key): the context's `em`, a non-transactional EntityManager of the request. */
export type TIdempotentCall<R extends TCallResult> = {
  apiKeyId: number;
  /** The procedure path; a key is scoped to one API key and one operation. */
  operation: string;
  key: string;
  /** The request as received (body and path parameters), before validation. */
  rawInput: unknown;
  /** The response the transport will send; a replay sets its status and headers. */
  response: { headers: Record<string, string>; status?: number };
  successStatus: number;
  /** Runs the operation on the transaction's EntityManager. */
  execute: (em: EntityManager) => Promise<R>;
  /**
   * Runs the operation without a transaction, storing the key's record in its own statement (IdempotencyClaim);
   * it may decline, and then `execute` runs it in the key's transaction. Only for operations built for it: the record
   * it stores answers `successStatus` with the response headers set before the operation runs.
   */
  executeClaimed?: (claim: IdempotencyClaim) => Promise<R>;
};

export type TIdempotentOutcome<R> = { replayed: false; result: R } | { replayed: true; data: unknown };

/** Thrown inside the transaction to roll back the key with the operation (the outcome is not kept). */
class Released<R> extends Error {
  readonly result: R;
  constructor(result: R) {
    super('idempotency key released');
    this.result = result;
  }
}

function invalidKey(message: string): AppError {
  return AppError.validation({ idempotency_key: [message] });
}

export function assertIdempotencyKey(key: string): void {
  if (!KEY_FORMAT.test(key)) throw invalidKey('The idempotency key must be 1 to 255 printable ASCII characters.');
}

/** The response headers a replay repeats. */
function keptHeaders(call: TIdempotentCall<TCallResult>): Record<string, string> {
  return Object.fromEntries(Object.entries(call.response.headers).filter(([name]) => !FRESH_HEADERS.test(name)));
}

/**
 * Which outcomes are kept for replay: successes and business-rule answers (400, 404). Validation errors
 * (422) and server errors are not kept, so a corrected or repeated request may run under the same key.
 */
function keptResponse<R extends TCallResult>(result: R, call: TIdempotentCall<R>): TStoredResponse | undefined {
  const headers = keptHeaders(call);
  if (result.ok) return { status: call.response.status ?? call.successStatus, body: result.data, headers };
  const error = toAppError(result.error);
  if (error.status >= 500 || error.status === 422 || error.status === 429) return undefined;
  return { status: error.status, body: error.toBody(), headers };
}

/** The AppError whose public body is the stored one (jsonb does not keep key order, so compare canonically). */
function errorFromStoredBody(status: number, body: TErrorBody): AppError {
  const codes = (Object.keys(APP_ERROR_STATUS) as TAppErrorCode[]).filter((code) => APP_ERROR_STATUS[code] === status);
  const options = { message: body.message, fieldErrors: body.errors, requiredScope: body.required_scope };
  for (const code of codes) {
    const error = new AppError(code, options);
    if (requestHash(error.toBody()) === requestHash(body)) return error;
  }
  return new AppError(codes[0] ?? 'INTERNAL', options);
}

const recordKey = (call: TIdempotentCall<TCallResult>): TRecordKey => ({
  apiKeyId: call.apiKeyId,
  operation: call.operation,
  key: call.key,
});

/**
 * Inserts the key's record, or returns the committed record another request made first. The insert comes first
 * (one round trip for a new key); an expired record found instead is removed and the insert tried again.
 */
async function claim(
  tx: EntityManager,
  call: TIdempotentCall<TCallResult>,
  hash: string,
): Promise<TRecord | undefined> {
  const key = recordKey(call);
  for (let attempt = 0; attempt < 3; attempt++) {
    // Blocks while another transaction holds an uncommitted record for the same key.
    if (await insertRecordIfAbsent(tx, key, hash)) return undefined;
    const record = await findRecord(tx, key);
    if (record && !record.expired) return record;
    // An expired record does not count: remove it so this request starts afresh.
    if (record) await deleteExpiredRecord(tx, key);
  }
  throw new Error('idempotency key could not be claimed');
}

/** Sets the stored status and headers on the response and returns the stored body (or throws the stored error). */
function replay(record: TRecord, hash: string, response: TIdempotentCall<TCallResult>['response']): unknown {
  if (record.request_hash !== hash)
    throw invalidKey('The idempotency key has already been used with a different request.');
  if (record.response_status === null) throw new Error('idempotency record without a response was committed');
  Object.assign(response.headers, (record.response_headers ?? {}) as Record<string, string>, {
    [REPLAY_HEADER]: 'true',
  });
  const body: unknown = JSON.parse(record.response_body as string);
  if (record.response_status >= 400) throw errorFromStoredBody(record.response_status, body as TErrorBody);
  response.status = record.response_status;
  return body;
}

let nextSweepAt = 0;

/** Deletes expired records (a batch); each process does it at most once a minute. */
export function sweepExpiredIdempotencyRecords(em: EntityManager): Promise<number> {
  return deleteExpiredRecords(em, SWEEP_BATCH);
}

export async function runIdempotently<R extends TCallResult>(
  ctx: TOperatorContext,
  call: TIdempotentCall<R>,
): Promise<TIdempotentOutcome<R>> {
  assertIdempotencyKey(call.key);
  const hash = requestHash(call.rawInput);
  if (Date.now() >= nextSweepAt) {
    nextSweepAt = Date.now() + SWEEP_INTERVAL_MS;
    await sweepExpiredIdempotencyRecords(ctx.em);
  }
  const generic = call as unknown as TIdempotentCall<TCallResult>;
  if (call.executeClaimed) {
    const outcome = await runClaimed(call, hash);
    if (outcome) return outcome;
  }
  try {
    return await leanTransaction(ctx.em, async (tx) => {
      const existing = await claim(tx, generic, hash);
      if (existing) return { replayed: true as const, data: replay(existing, hash, call.response) };
      const result = await call.execute(tx);
      const kept = keptResponse(result, call);
      if (!kept) throw new Released(result);
      await storeRecordResponse(tx, recordKey(generic), kept);
      return { replayed: false as const, result };
    });
  } catch (error) {
    if (error instanceof Released) return { replayed: false, result: error.result as R };
    throw error;
  }
}

/** Whether a result is an operation's ClaimDeclined (tRPC wraps what a procedure throws). */
function isDeclined(result: TCallResult): boolean {
  if (result.ok) return false;
  const error = result.error as { cause?: unknown } | undefined;
  return error instanceof ClaimDeclined || error?.cause instanceof ClaimDeclined;
}

/**
 * The one-statement attempt (executeClaimed): its outcome when it is final — the record stored with the response, or
 * an outcome that is not kept (a 422, a 5xx) and so needs no record; undefined when the key's transaction must run it.
 */
async function runClaimed<R extends TCallResult>(
  call: TIdempotentCall<R>,
  hash: string,
): Promise<TIdempotentOutcome<R> | undefined> {
  const generic = call as unknown as TIdempotentCall<TCallResult>;
  const claim = new IdempotencyClaim({
    apiKeyId: call.apiKeyId,
    operation: call.operation,
    key: call.key,
    hash,
    status: call.successStatus,
    headers: JSON.stringify(keptHeaders(generic)),
  });
  const result = await call.executeClaimed!(claim);
  if (claim.stored) return { replayed: false, result };
  if (isDeclined(result)) return undefined;
  if (result.ok) throw new Error('a one-statement idempotent operation succeeded without storing its record');
  return keptResponse(result, call) === undefined ? { replayed: false, result } : undefined;
}
