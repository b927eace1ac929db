import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type UpdateResult } from 'kysely';
import { crossTenantDb, serialRow, type TDb } from '../../db/kysely.ts';
import { APP_ERROR_STATUS, AppError, type TAppErrorCode, type TErrorBody } from '../../lib/errors.ts';
import { toAppError } from '../../lib/to-app-error.ts';
import { requestHash } from './request-hash.ts';
import { StatementTemplate, leanTransaction } from '../../db/fast-path/index.ts';
import { ClaimDeclined, IdempotencyClaim } from './idempotency-claim.ts';
import { recordExpiry, recordKeyOf, storedBody, storedHeaders } from './idempotency-record.ts';

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
 * An operator path (scripts/check-layers.ts): records are keyed by API key in a table that belongs to no tenant, so
 * they are read and written with `crossTenantDb`; the operation itself runs with its tenant's scoped handle.
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

export type TIdempotentCall<R extends TCallResult> = {
  /** A non-transactional EntityManager of the request. */
  em: EntityManager;
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

type TStoredResponse = { status: number; body: unknown; headers: Record<string, string> };

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

/** The record of one key: per API key and operation. `part` gives each part: a value, or a template's parameter. */
const sameKeyOf = (part: <T>(pick: (call: TIdempotentCall<TCallResult>) => T) => T) =>
  recordKeyOf({ apiKeyId: part((call) => call.apiKeyId), operation: part((call) => call.operation), key: part((call) => call.key) });
const sameKey = (call: TIdempotentCall<TCallResult>) => sameKeyOf((pick) => pick(call));

type TRecord = { request_hash: string; response_status: number | null; response_body: unknown; response_headers: unknown };

/**
 * Inserts the key's record, or returns the committed record another request made first. The insert comes first
 * (one round trip for a new key); an expired record found instead is removed and the insert tried again.
 */
async function claim(db: TDb, call: TIdempotentCall<TCallResult>, hash: string): Promise<TRecord | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // Blocks while another transaction holds an uncommitted record for the same key.
    const [inserted] = await insertRecord.execute(db, { call, hash });
    if (inserted) return undefined;
    const record = await db
      .selectFrom('idempotency_records')
      .select(['request_hash', 'response_status', 'response_body', 'response_headers', sql<boolean>`expires_at <= now()`.as('expired')])
      .where((eb) => eb.and(sameKey(call)))
      .executeTakeFirst();
    if (record && !record.expired) return record;
    // An expired record does not count: remove it so this request starts afresh.
    if (record) {
      await db
        .deleteFrom('idempotency_records')
        .where((eb) => eb.and(sameKey(call)))
        .where('expires_at', '<=', sql<Date>`now()`)
        .execute();
    }
  }
  throw new Error('idempotency key could not be claimed');
}

/** The first statement of every idempotent request, built once (StatementTemplate): the insert of the key's record. */
const insertRecord = StatementTemplate.unscoped<{ call: TIdempotentCall<TCallResult>; hash: string }, { id: number }>((db, arg) =>
  db
    .insertInto('idempotency_records')
    .values(serialRow<'idempotency_records'>({
      ...sameKeyOf((pick) => arg((args) => pick(args.call))),
      request_hash: arg((args) => args.hash),
      expires_at: recordExpiry(),
    }))
    .onConflict((oc) => oc.columns(['api_key_id', 'operation', 'key']).doNothing())
    .returning('id'),
);

/** The last statement of every kept idempotent request, built once: the record's response. */
const storeResponse = StatementTemplate.unscoped<{ call: TIdempotentCall<TCallResult>; response: TStoredResponse }, UpdateResult>((db, arg) =>
  db
    .updateTable('idempotency_records')
    .set({
      response_status: arg((args) => args.response.status),
      response_body: storedBody(arg((args) => JSON.stringify(args.response.body ?? null))),
      response_headers: storedHeaders(arg((args) => JSON.stringify(args.response.headers))),
    })
    .where((eb) => eb.and(sameKeyOf((pick) => arg((args) => pick(args.call))))),
);

async function store(db: TDb, call: TIdempotentCall<TCallResult>, response: TStoredResponse): Promise<void> {
  await storeResponse.execute(db, { call, response });
}

/** Sets the stored status and headers on the response and returns the stored body (or throws the stored error). */
function replay(record: TRecord, hash: string, response: TIdempotentCall<TCallResult>['response']): unknown {
  if (record.request_hash !== hash) throw invalidKey('The idempotency key has already been used with a different request.');
  if (record.response_status === null) throw new Error('idempotency record without a response was committed');
  Object.assign(response.headers, (record.response_headers ?? {}) as Record<string, string>, { [REPLAY_HEADER]: 'true' });
  const body: unknown = JSON.parse(record.response_body as string);
  if (record.response_status >= 400) throw errorFromStoredBody(record.response_status, body as TErrorBody);
  response.status = record.response_status;
  return body;
}

let nextSweepAt = 0;

/** Deletes expired records (a batch); each process does it at most once a minute. */
export async function sweepExpiredIdempotencyRecords(em: EntityManager): Promise<number> {
  const db = crossTenantDb(em);
  const result = await db
    .deleteFrom('idempotency_records')
    .where('id', 'in', db.selectFrom('idempotency_records').select('id').where('expires_at', '<=', sql<Date>`now()`).limit(SWEEP_BATCH))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function runIdempotently<R extends TCallResult>(call: TIdempotentCall<R>): Promise<TIdempotentOutcome<R>> {
  assertIdempotencyKey(call.key);
  const hash = requestHash(call.rawInput);
  if (Date.now() >= nextSweepAt) {
    nextSweepAt = Date.now() + SWEEP_INTERVAL_MS;
    await sweepExpiredIdempotencyRecords(call.em);
  }
  const generic = call as unknown as TIdempotentCall<TCallResult>;
  if (call.executeClaimed) {
    const outcome = await runClaimed(call, hash);
    if (outcome) return outcome;
  }
  try {
    return await leanTransaction(call.em, async (tx) => {
      const db = crossTenantDb(tx);
      const existing = await claim(db, generic, hash);
      if (existing) return { replayed: true as const, data: replay(existing, hash, call.response) };
      const result = await call.execute(tx);
      const kept = keptResponse(result, call);
      if (!kept) throw new Released(result);
      await store(db, generic, kept);
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
async function runClaimed<R extends TCallResult>(call: TIdempotentCall<R>, hash: string): Promise<TIdempotentOutcome<R> | undefined> {
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
