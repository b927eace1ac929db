import { sql, type Expression, type RawBuilder } from 'kysely';

/** ISO-8601 in UTC with `Z` (what every timestamp in a response looks like), or null. */
export function isoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : iso(value);
}

export function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** iso() in SQL: a timestamptz as JavaScript's toISOString writes it (milliseconds, truncated like a JavaScript Date). */
export function isoText(timestamp: Expression<Date>): RawBuilder<string> {
  return sql<string>`to_char(${timestamp} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
