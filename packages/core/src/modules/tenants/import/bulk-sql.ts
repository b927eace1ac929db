import { sql, type RawBuilder } from 'kysely';
import type { TDb } from '../../../db/kysely.ts';

/**
 * Set-based writes for the tenant import: every statement sends one array per column and lets PostgreSQL
 * `unnest` them into rows, so a chunk of thousands of rows is one statement with a handful of parameters
 * (no 65 535-parameter limit, no per-row round trips).
 */

export type TColumnType = 'int4' | 'text' | 'bool' | 'float8' | 'timestamptz' | 'jsonb' | 'text[]';

export type TColumn = {
  name: string;
  type: TColumnType;
  /**
   * On conflict: `set` (default) writes the new value, `keep` leaves the stored one; any other string is an
   * SQL expression for the new value (it may use `excluded."col"` and `"<table>"."col"`).
   */
  onUpdate?: 'set' | 'keep' | string;
  /** A null value means "the column default when inserting, the stored value when updating" (e.g. created_at). */
  defaultWhenNull?: boolean;
};

export const DEFAULT_CHUNK_SIZE = 5_000;

/** `{"a","b \"c\""}`: a PostgreSQL array literal of text values. */
export function pgTextArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

function parameterValue(type: TColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb') return JSON.stringify(value);
  if (type === 'text[]') return pgTextArrayLiteral(value as string[]);
  return value;
}

/** Element type of the parameter array: text[] columns travel as text literals and are cast per row. */
function parameterType(type: TColumnType): string {
  return type === 'text[]' ? 'text[]' : `${type}[]`;
}

function selectExpression(column: TColumn): RawBuilder<unknown> {
  return column.type === 'text[]' ? sql`u.${sql.id(column.name)}::text[]` : sql`u.${sql.id(column.name)}`;
}

type TUpsertOptions = {
  /** Conflict target, e.g. `["id"]` or `["tenant_id","name"]`; omitted: a plain insert. */
  conflict?: readonly string[];
  /** `nothing`: ignore conflicting rows instead of updating them. */
  onConflict?: 'update' | 'nothing';
  returning?: readonly string[];
  chunkSize?: number;
};

/**
 * Inserts `rows` (one array of values per row, in the order of `columns`), updating rows that already exist
 * (`insert … select … from unnest(…) on conflict (…) do update`). Returns the `returning` columns, if asked.
 */
export async function upsertRows<TRow = Record<string, unknown>>(
  db: TDb,
  table: string,
  columns: readonly TColumn[],
  rows: readonly (readonly unknown[])[],
  options: TUpsertOptions = {},
): Promise<TRow[]> {
  if (rows.length === 0) return [];
  // Rows whose "default when null" columns are null leave those columns out: group rows by that pattern.
  const optional = columns.map((c, i) => (c.defaultWhenNull ? i : -1)).filter((i) => i >= 0);
  const groups = new Map<string, (readonly unknown[])[]>();
  for (const row of rows) {
    const key = optional.map((i) => (row[i] === null || row[i] === undefined ? '0' : '1')).join('');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(row);
  }
  const out: TRow[] = [];
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  for (const [key, groupRows] of groups) {
    const omitted = new Set(optional.filter((_, k) => key[k] === '0'));
    const used = columns.map((column, index) => ({ column, index })).filter(({ index }) => !omitted.has(index));
    for (let start = 0; start < groupRows.length; start += chunkSize) {
      const chunk = groupRows.slice(start, start + chunkSize);
      const params = used.map(({ column, index }) => {
        const values = chunk.map((row) => parameterValue(column.type, row[index]));
        return sql`${values}::${sql.raw(parameterType(column.type))}`;
      });
      const names = sql.join(used.map(({ column }) => sql.id(column.name)));
      const query = sql`insert into ${sql.id(table)} (${names})
        select ${sql.join(used.map(({ column }) => selectExpression(column)))}
        from unnest(${sql.join(params)}) as u(${names})
        ${conflictClause(table, used.map(({ column }) => column), options)}
        ${options.returning ? sql`returning ${sql.join(options.returning.map((c) => sql.id(c)))}` : sql``}`;
      const result = await query.execute(db);
      out.push(...(result.rows as TRow[]));
    }
  }
  return out;
}

/**
 * Writes rows keyed by their first column, `id`: ids not yet in the table are inserted with a plain insert
 * (cheaper than `on conflict` for a first import), the others are upserted. Returns the ids that were new.
 */
export async function upsertById(
  db: TDb,
  table: string,
  columns: readonly TColumn[],
  rows: readonly (readonly unknown[])[],
  options: { chunkSize?: number } = {},
): Promise<Set<number>> {
  if (columns[0]?.name !== 'id') throw new Error(`upsertById(${table}): the first column must be id`);
  const ids = rows.map((row) => row[0] as number);
  const existing = new Set<number>();
  for (let start = 0; start < ids.length; start += 50_000) {
    const { rows: found } = await sql<{ id: number }>`select id from ${sql.table(table)}
      where id = any(${ids.slice(start, start + 50_000)}::int4[])`.execute(db);
    for (const row of found) existing.add(row.id);
  }
  const fresh = rows.filter((row) => !existing.has(row[0] as number));
  await upsertRows(db, table, columns, fresh, { chunkSize: options.chunkSize });
  if (existing.size > 0) {
    await upsertRows(db, table, columns, rows.filter((row) => existing.has(row[0] as number)), { conflict: ['id'], chunkSize: options.chunkSize });
  }
  return new Set(fresh.map((row) => row[0] as number));
}

function conflictClause(table: string, columns: readonly TColumn[], options: TUpsertOptions): RawBuilder<unknown> {
  if (!options.conflict) return sql``;
  const target = sql.join(options.conflict.map((c) => sql.id(c)));
  const updated = columns.filter((c) => !options.conflict?.includes(c.name) && c.onUpdate !== 'keep');
  if (options.onConflict === 'nothing' || updated.length === 0) return sql`on conflict (${target}) do nothing`;
  const newValue = (c: TColumn): RawBuilder<unknown> =>
    c.onUpdate === undefined || c.onUpdate === 'set' ? sql`excluded.${sql.id(c.name)}` : sql`(${sql.raw(c.onUpdate)})`;
  const assignments = sql.join(updated.map((c) => sql`${sql.id(c.name)} = ${newValue(c)}`));
  // Rows that would not change are left alone (no new row version, no index churn): a re-import of an
  // unchanged document writes next to nothing. Not with `returning`, which must see every row.
  if (options.returning) return sql`on conflict (${target}) do update set ${assignments}`;
  const current = sql.join(updated.map((c) => sql`${sql.table(table)}.${sql.id(c.name)}`));
  const next = sql.join(updated.map(newValue));
  return sql`on conflict (${target}) do update set ${assignments} where (${current}) is distinct from (${next})`;
}

/**
 * Makes the pivot rows of the given owners exactly the listed (owner, target) pairs: removes the pairs that
 * are no longer listed and adds the missing ones; pairs that stay are not touched. Owners in `newOwners`
 * were inserted in this transaction and have no rows yet: their pairs are simply inserted.
 */
export async function replacePivotRows(
  db: TDb,
  table: string,
  ownerColumn: string,
  targetColumn: string,
  owners: readonly (readonly [number, readonly number[]])[],
  options: { chunkSize?: number; newOwners?: ReadonlySet<number> } = {},
): Promise<void> {
  const owner = sql.id(ownerColumn);
  const target = sql.id(targetColumn);
  const newOwners = options.newOwners ?? new Set<number>();
  const fresh = owners.filter(([id]) => newOwners.has(id));
  const rows = fresh.flatMap(([id, targets]) => targets.map((t) => [id, t]));
  const int = (name: string): TColumn => ({ name, type: 'int4' });
  await upsertRows(db, table, [int(ownerColumn), int(targetColumn)], rows, { chunkSize: (options.chunkSize ?? DEFAULT_CHUNK_SIZE) * 4 });
  const known = fresh.length === 0 ? owners : owners.filter(([id]) => !newOwners.has(id));
  const ownersPerStatement = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  for (let start = 0; start < known.length; start += ownersPerStatement) {
    const chunk = known.slice(start, start + ownersPerStatement);
    const ownerIds = chunk.map(([id]) => id);
    const pairOwners: number[] = [];
    const pairTargets: number[] = [];
    for (const [id, targets] of chunk) {
      for (const t of targets) {
        pairOwners.push(id);
        pairTargets.push(t);
      }
    }
    await sql`delete from ${sql.table(table)} p
      where p.${owner} = any(${ownerIds}::int4[])
        and not exists (select 1 from unnest(${pairOwners}::int4[], ${pairTargets}::int4[]) as n(o, t) where n.o = p.${owner} and n.t = p.${target})`.execute(db);
    if (pairOwners.length === 0) continue;
    await sql`insert into ${sql.table(table)} (${owner}, ${target})
      select n.o, n.t from unnest(${pairOwners}::int4[], ${pairTargets}::int4[]) as n(o, t)
      on conflict do nothing`.execute(db);
  }
}
