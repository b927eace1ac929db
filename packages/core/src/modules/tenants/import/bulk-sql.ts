import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type RawBuilder } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import type { TDb } from '../../../db/kysely.ts';
import { countWritten, type TImportTransaction } from './import-transaction.ts';

/**
 * Set-based writes for the tenant import. Rows new to a table are streamed in with `COPY … FROM STDIN`, the
 * cheapest way into PostgreSQL — the same work as a plain COPY of those rows, triggers and constraints
 * included. Rows that exist already are streamed into a temporary staging table (`on commit drop`: it ends
 * with the import's transaction) and merged with one `UPDATE … FROM` that touches only the rows that differ,
 * so a repeated import writes nothing and its triggers see nothing. One statement per table and kind of
 * change: the statement-level triggers (content version, events) fire once per table, not once per chunk.
 */

export type TColumnType = 'int4' | 'text' | 'bool' | 'float8' | 'timestamptz' | 'jsonb' | 'text[]';

export type TColumn = {
  name: string;
  type: TColumnType;
  /**
   * When the row exists: `keep` leaves the stored value; a function gives the SQL of the new value from the
   * SQL of the stored and of the given value. Default: the given value.
   */
  onUpdate?: 'keep' | ((stored: string, given: string) => string);
  /** A null value means "the column default when inserting, the stored value when updating" (e.g. created_at). */
  defaultWhenNull?: boolean;
};

/** `{"a","b \"c\""}`: a PostgreSQL array literal of text values. */
export function pgTextArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

// ---------------------------------------------------------------------------------------------------------
// COPY
// ---------------------------------------------------------------------------------------------------------

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeCopyText = (text: string): string =>
  COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c] ?? c) : text;

/** One field of COPY's text format. */
function copyField(type: TColumnType, value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  switch (type) {
    case 'int4':
    case 'float8':
      return String(value);
    case 'bool':
      return value ? 't' : 'f';
    case 'jsonb':
      return escapeCopyText(JSON.stringify(value));
    case 'text[]':
      return escapeCopyText(pgTextArrayLiteral(value as string[]));
    default:
      return escapeCopyText(String(value));
  }
}

/** Characters of COPY text per chunk handed to the connection (the rows are encoded as the connection takes them). */
const COPY_CHUNK = 256 * 1024;

function* copyText(
  columns: readonly TColumn[],
  rows: Iterable<readonly unknown[]>,
  indexes: readonly number[],
): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    let line = '';
    for (let k = 0; k < indexes.length; k++) {
      const index = indexes[k] as number;
      line += (k === 0 ? '' : '\t') + copyField((columns[index] as TColumn).type, row[index]);
    }
    chunk += `${line}\n`;
    if (chunk.length >= COPY_CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** Streams `rows` (values in the order of `columns`, all of them or those at `indexes`) into `table` with one COPY; returns the row count. */
async function copyRows(
  trx: TImportTransaction,
  table: string,
  columns: readonly TColumn[],
  rows: Iterable<readonly unknown[]>,
  indexes = columns.map((_, i) => i),
): Promise<number> {
  const names = indexes.map((i) => quote((columns[i] as TColumn).name)).join(', ');
  const copy = trx.client.query(copyFrom(`copy ${quote(table)} (${names}) from stdin`));
  await pipeline(Readable.from(copyText(columns, rows, indexes)), copy);
  return copy.rowCount;
}

/**
 * Rows grouped by which of their "default when null" values are null (usually one group): those columns are
 * left out of that group's statement, so the column default applies.
 */
function groupByDefaults(
  columns: readonly TColumn[],
  rows: Iterable<readonly unknown[]>,
): { indexes: number[]; rows: (readonly unknown[])[] }[] {
  const optional = columns.map((c, i) => (c.defaultWhenNull ? i : -1)).filter((i) => i >= 0);
  const groups = new Map<string, (readonly unknown[])[]>();
  for (const row of rows) {
    const key = optional.map((i) => (row[i] === null || row[i] === undefined ? '0' : '1')).join('');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(row);
  }
  return [...groups].map(([key, groupRows]) => {
    const omitted = new Set(optional.filter((_, k) => key[k] === '0'));
    return { indexes: columns.map((_, i) => i).filter((i) => !omitted.has(i)), rows: groupRows };
  });
}

/** Inserts rows that are new to `table` with COPY (one per group of defaulted columns). */
async function copyNewRows(
  trx: TImportTransaction,
  table: string,
  columns: readonly TColumn[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  for (const group of groupByDefaults(columns, rows))
    countWritten(trx, table, await copyRows(trx, table, columns, group.rows, group.indexes));
}

/** A temporary table named after `table` holding `rows`; it lives until the import's transaction ends. */
async function stage(
  trx: TImportTransaction,
  table: string,
  columns: readonly TColumn[],
  rows: Iterable<readonly unknown[]>,
): Promise<string> {
  const staged = quote(`import_${table}`);
  const definition = columns.map((c) => `${quote(c.name)} ${c.type}`).join(', ');
  await trx.client.query(`create temp table if not exists ${staged} (${definition}) on commit drop`);
  await trx.client.query(`truncate ${staged}`);
  await copyRows(trx, `import_${table}`, columns, rows);
  // Fresh statistics: the merge joins it with the real table, and a guessed size can pick a nested loop.
  await trx.client.query(`analyze ${staged}`);
  return staged;
}

/** `set a = <new a>, …` and the row comparison that finds rows whose new values differ. */
function mergeAssignments(
  columns: readonly TColumn[],
  key: readonly string[],
): { set: string; changed: string } | undefined {
  const updated = columns.filter((c) => !key.includes(c.name) && c.onUpdate !== 'keep');
  if (updated.length === 0) return undefined;
  const newValue = (c: TColumn): string => {
    const [stored, given] = [`t.${quote(c.name)}`, `s.${quote(c.name)}`];
    if (typeof c.onUpdate === 'function') return `(${c.onUpdate(stored, given)})`;
    return c.defaultWhenNull ? `coalesce(${given}, ${stored})` : given;
  };
  return {
    set: updated.map((c) => `${quote(c.name)} = ${newValue(c)}`).join(', '),
    changed: `(${updated.map((c) => `t.${quote(c.name)}`).join(', ')}) is distinct from (${updated.map(newValue).join(', ')})`,
  };
}

const keyMatch = (key: readonly string[]): string => key.map((k) => `t.${quote(k)} = s.${quote(k)}`).join(' and ');

/**
 * Writes rows keyed by their first column, `id`: ids not in `stored` are inserted with COPY, the stored ones
 * are updated where they differ. Returns the ids that were new.
 */
export async function writeById(
  trx: TImportTransaction,
  table: string,
  columns: readonly TColumn[],
  rows: readonly (readonly unknown[])[],
  stored: ReadonlySet<number>,
): Promise<Set<number>> {
  if (columns[0]?.name !== 'id') throw new Error(`writeById(${table}): the first column must be id`);
  const fresh: (readonly unknown[])[] = [];
  const known: (readonly unknown[])[] = [];
  for (const row of rows) (stored.has(row[0] as number) ? known : fresh).push(row);
  await copyNewRows(trx, table, columns, fresh);
  const merge = mergeAssignments(columns, ['id']);
  if (known.length > 0 && merge) {
    const staged = await stage(trx, table, columns, known);
    const updated = await trx.client.query(
      `update ${quote(table)} t set ${merge.set} from ${staged} s where t.id = s.id and ${merge.changed}`,
    );
    countWritten(trx, table, updated.rowCount);
  }
  return new Set(fresh.map((row) => row[0] as number));
}

/**
 * Makes the rows of the given owners exactly `rows` (link rows, translations): rows are matched by `key`
 * (which starts with the owner column); matched rows are updated where they differ, missing ones inserted,
 * and rows of these owners that are no longer listed are removed. Owners in `newOwners` were inserted in this
 * transaction and have no rows yet: theirs are simply copied in.
 */
export async function replaceOwnedRows(
  trx: TImportTransaction,
  table: string,
  columns: readonly TColumn[],
  key: readonly string[],
  owners: readonly number[],
  rows: readonly (readonly unknown[])[],
  newOwners: ReadonlySet<number>,
): Promise<void> {
  // Staged rows are inserted with `insert … select`, which cannot fall back to a column default per row.
  if (columns.some((c) => c.defaultWhenNull))
    throw new Error(`replaceOwnedRows(${table}): columns with defaultWhenNull are not supported`);
  const ownerIndex = columns.findIndex((c) => c.name === key[0]);
  const owner = quote(key[0] ?? '');
  const fresh: (readonly unknown[])[] = [];
  const known: (readonly unknown[])[] = [];
  for (const row of rows) (newOwners.has(row[ownerIndex] as number) ? fresh : known).push(row);
  await copyNewRows(trx, table, columns, fresh);
  const knownOwners = owners.filter((id) => !newOwners.has(id));
  if (knownOwners.length === 0) return;
  const staged = await stage(trx, table, columns, known);
  const deleted = await trx.client.query(
    `delete from ${quote(table)} t where t.${owner} = any($1::int4[]) and not exists (select 1 from ${staged} s where ${keyMatch(key)})`,
    [knownOwners],
  );
  countWritten(trx, table, deleted.rowCount);
  const merge = mergeAssignments(columns, key);
  if (merge) {
    const updated = await trx.client.query(
      `update ${quote(table)} t set ${merge.set} from ${staged} s where ${keyMatch(key)} and ${merge.changed}`,
    );
    countWritten(trx, table, updated.rowCount);
  }
  const names = columns.map((c) => quote(c.name)).join(', ');
  const inserted = await trx.client.query(
    `insert into ${quote(table)} (${names}) select ${names} from ${staged} s where not exists (select 1 from ${quote(table)} t where ${keyMatch(key)})`,
  );
  countWritten(trx, table, inserted.rowCount);
}

// ---------------------------------------------------------------------------------------------------------
// Small upserts with RETURNING (the tenant row, team roles)
// ---------------------------------------------------------------------------------------------------------

/**
 * Inserts `rows` (one array of values per row, in the order of `columns`), updating rows that conflict on
 * `conflict` (`insert … select … from unnest(…) on conflict (…) do update`); returns the `returning` columns.
 */
export async function upsertRows<TRow = Record<string, unknown>>(
  db: TDb,
  table: string,
  columns: readonly TColumn[],
  rows: readonly (readonly unknown[])[],
  options: { conflict: readonly string[]; returning: readonly string[] },
): Promise<TRow[]> {
  const out: TRow[] = [];
  for (const group of groupByDefaults(columns, rows)) {
    const used = group.indexes.map((index) => ({ column: columns[index] as TColumn, index }));
    const params = used.map(({ column, index }) => {
      const values = group.rows.map((row) => unnestValue(column.type, row[index]));
      return sql`${values}::${sql.raw(column.type === 'text[]' ? 'text[]' : `${column.type}[]`)}`;
    });
    const names = sql.join(used.map(({ column }) => sql.id(column.name)));
    const query = sql`insert into ${sql.id(table)} (${names})
      select ${sql.join(used.map(({ column }) => (column.type === 'text[]' ? sql`u.${sql.id(column.name)}::text[]` : sql`u.${sql.id(column.name)}`)))}
      from unnest(${sql.join(params)}) as u(${names})
      ${conflictClause(
        table,
        used.map(({ column }) => column),
        options.conflict,
      )}
      returning ${sql.join(options.returning.map((c) => sql.id(c)))}`;
    const result = await query.execute(db);
    out.push(...(result.rows as TRow[]));
  }
  return out;
}

/** Values of an `unnest` parameter array: text[] columns travel as array literals and are cast per row. */
function unnestValue(type: TColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb') return JSON.stringify(value);
  if (type === 'text[]') return pgTextArrayLiteral(value as string[]);
  return value;
}

function conflictClause(table: string, columns: readonly TColumn[], conflict: readonly string[]): RawBuilder<unknown> {
  const target = sql.join(conflict.map((c) => sql.id(c)));
  const updated = columns.filter((c) => !conflict.includes(c.name) && c.onUpdate !== 'keep');
  if (updated.length === 0) return sql`on conflict (${target}) do nothing`;
  const newValue = (c: TColumn): string =>
    typeof c.onUpdate === 'function'
      ? `(${c.onUpdate(`${quote(table)}.${quote(c.name)}`, `excluded.${quote(c.name)}`)})`
      : `excluded.${quote(c.name)}`;
  return sql`on conflict (${target}) do update set ${sql.raw(updated.map((c) => `${quote(c.name)} = ${newValue(c)}`).join(', '))}`;
}
