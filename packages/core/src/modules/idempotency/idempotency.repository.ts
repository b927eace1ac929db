import type { EntityManager } from '@mikro-orm/postgresql';
import {
  sql,
  type Expression,
  type InsertQueryBuilder,
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  type UpdateResult,
} from 'kysely';
import { crossTenantDb, serialRow, type TDB } from '../../db/kysely.ts';
import { StatementTemplate } from '../../db/fast-path/index.ts';
import { markerOf, type TClaimValues } from './idempotency-claim.ts';

/*
 * The statements of Idempotency-Key records, for both ways of storing one: the key's transaction
 * (idempotency.service.ts) and an operation's own statement (IdempotencyClaim). An operator path
 * (scripts/check-layers.ts): records are keyed by API key in a table that belongs to no tenant, so they are read and
 * written with `crossTenantDb`.
 */

export const IDEMPOTENCY_TTL_HOURS = 24;

/** When a record stored now expires. */
export function recordExpiry(): RawBuilder<Date> {
  return sql<Date>`now() + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`;
}

/** The record of one key: per API key and operation. */
export function recordKeyOf(key: { apiKeyId: number; operation: string; key: string }) {
  return { api_key_id: key.apiKeyId, operation: key.operation, key: key.key };
}

/** A response body (JSON text) as stored: a JSON string inside jsonb, since jsonb would reorder the keys and a replay should be byte-identical. */
export function storedBody(text: Expression<string> | string): RawBuilder<unknown> {
  return sql<unknown>`to_jsonb(${text}::text)`;
}

/** Response headers (JSON text of an object) as stored. */
export function storedHeaders(json: string): RawBuilder<Record<string, string>> {
  return sql<Record<string, string>>`cast(${json}::text as jsonb)`;
}

/** The key of a record: per API key and operation. */
export type TRecordKey = { apiKeyId: number; operation: string; key: string };

/** A stored response. */
export type TStoredResponse = { status: number; body: unknown; headers: Record<string, string> };

/** A committed record as a replay reads it. */
export type TRecord = {
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
  response_headers: unknown;
};

/** The first statement of every idempotent request, built once (StatementTemplate): the insert of the key's record. */
const insertRecord = StatementTemplate.unscoped<{ key: TRecordKey; hash: string }, { id: number }>((db, arg) =>
  db
    .insertInto('idempotency_records')
    .values(
      serialRow<'idempotency_records'>({
        ...recordKeyOf({
          apiKeyId: arg((args) => args.key.apiKeyId),
          operation: arg((args) => args.key.operation),
          key: arg((args) => args.key.key),
        }),
        request_hash: arg((args) => args.hash),
        expires_at: recordExpiry(),
      }),
    )
    .onConflict((oc) => oc.columns(['api_key_id', 'operation', 'key']).doNothing())
    .returning('id'),
);

/** The last statement of every kept idempotent request, built once: the record's response. */
const storeResponse = StatementTemplate.unscoped<{ key: TRecordKey; response: TStoredResponse }, UpdateResult>(
  (db, arg) =>
    db
      .updateTable('idempotency_records')
      .set({
        response_status: arg((args) => args.response.status),
        response_body: storedBody(arg((args) => JSON.stringify(args.response.body ?? null))),
        response_headers: storedHeaders(arg((args) => JSON.stringify(args.response.headers))),
      })
      .where((eb) =>
        eb.and(
          recordKeyOf({
            apiKeyId: arg((args) => args.key.apiKeyId),
            operation: arg((args) => args.key.operation),
            key: arg((args) => args.key.key),
          }),
        ),
      ),
);

/** Inserts the key's record unless one exists (it waits while another transaction holds an uncommitted one): inserted or not. */
export async function insertRecordIfAbsent(tx: EntityManager, key: TRecordKey, hash: string): Promise<boolean> {
  return (await insertRecord.execute(crossTenantDb(tx), { key, hash })).length > 0;
}

/** The key's record, and whether it has expired. */
export async function findRecord(
  tx: EntityManager,
  key: TRecordKey,
): Promise<(TRecord & { expired: boolean }) | undefined> {
  return crossTenantDb(tx)
    .selectFrom('idempotency_records')
    .select([
      'request_hash',
      'response_status',
      'response_body',
      'response_headers',
      sql<boolean>`expires_at <= now()`.as('expired'),
    ])
    .where((eb) => eb.and(recordKeyOf(key)))
    .executeTakeFirst();
}

/** Removes the key's record if it has expired. */
export async function deleteExpiredRecord(tx: EntityManager, key: TRecordKey): Promise<void> {
  await crossTenantDb(tx)
    .deleteFrom('idempotency_records')
    .where((eb) => eb.and(recordKeyOf(key)))
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
}

/** Stores the response in the key's record. */
export async function storeRecordResponse(
  tx: EntityManager,
  key: TRecordKey,
  response: TStoredResponse,
): Promise<void> {
  await storeResponse.execute(crossTenantDb(tx), { key, response });
}

/** Deletes up to `limit` expired records; returns how many. */
export async function deleteExpiredRecords(em: EntityManager, limit: number): Promise<number> {
  const db = crossTenantDb(em);
  const result = await db
    .deleteFrom('idempotency_records')
    .where(
      'id',
      'in',
      db.selectFrom('idempotency_records').select('id').where('expires_at', '<=', sql<Date>`now()`).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** True while no record of the key exists (an expired one included: the key's transaction removes it). */
export function recordAbsent(db: Kysely<TDB>, claim: TClaimValues): RawBuilder<boolean> {
  return sql<boolean>`not exists (${db
    .selectFrom('idempotency_records')
    .select('id')
    .where((eb) => eb.and(recordKeyOf(claim)))})`;
}

/** The template (a parameter) with every marker replaced by the JSON of its value, which JSON.parse gives back. */
export function splicedBody(template: string, values: Record<string, Expression<unknown>>): RawBuilder<string> {
  let body: RawBuilder<string> = sql<string>`${template}::text`;
  for (const [name, value] of Object.entries(values))
    body = sql<string>`replace(${body}, ${JSON.stringify(markerOf(name))}, to_json(${value})::text)`;
  return body;
}

/** The insert of the key's record with its response (`body`), one per row of `from`; returns the stored body. */
export function insertClaimedRecord<DB extends TDB>(
  qc: QueryCreator<DB>,
  claim: TClaimValues,
  from: RawBuilder<unknown>,
  body: Expression<string>,
): InsertQueryBuilder<DB, 'idempotency_records', { response_body: string }> {
  return (qc as unknown as QueryCreator<TDB>)
    .insertInto('idempotency_records')
    .columns([
      'api_key_id',
      'operation',
      'key',
      'request_hash',
      'expires_at',
      'response_status',
      'response_body',
      'response_headers',
    ])
    .expression(
      sql`select ${claim.apiKeyId}::integer, ${claim.operation}::text, ${claim.key}::text, ${claim.hash}::text, ${recordExpiry()},
        ${claim.status}::integer, ${storedBody(body)}, ${storedHeaders(claim.headers)} from ${from}`,
    )
    .returning(sql<string>`response_body`.as('response_body')) as unknown as InsertQueryBuilder<
    DB,
    'idempotency_records',
    { response_body: string }
  >;
}
