import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * How an Idempotency-Key's record is written, for both ways of storing one: the key's transaction (idempotency.ts)
 * and an operation's own statement (idempotency-claim.ts).
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
