import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { crossTenantDb, type TDb } from '../../../db/kysely.ts';
import { SEQUENCE_TABLES } from './import-tables.ts';

/**
 * A bulk load leaves the planner's statistics behind the data (autovacuum catches up only later): without fresh
 * ones it can pick a scan of the whole tenant over the (tenant, slug) index for a single vacancy. So the tables
 * that autovacuum would analyze for this import's writes (more than 50 rows + 10 % of the table, its defaults)
 * are analyzed now; VACUUM also marks the new pages all-visible, so list pages are cut by index-only scans from
 * the start. An import that changed little (a re-import) leaves the statistics to autovacuum.
 */
export async function refreshStatistics(em: EntityManager, written: ReadonlyMap<string, number>): Promise<void> {
  if (written.size === 0) return;
  const db = crossTenantDb(em.fork());
  const { rows: sizes } = await sql<{
    table: string;
    rows: number;
  }>`select c.relname as "table", greatest(c.reltuples, 0)::float8 as "rows"
    from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relname = any(${[...written.keys()]}::text[])`.execute(
    db,
  );
  const stale = sizes
    .filter(({ table, rows }) => (written.get(table) ?? 0) > 50 + 0.1 * rows)
    .map(({ table }) => table);
  // One table per connection, side by side: each VACUUM uses one core, and the biggest table sets the pace.
  await Promise.all(stale.map((table) => sql`vacuum (analyze) ${sql.table(table)}`.execute(crossTenantDb(em.fork()))));
}

/** Moves each id sequence past the largest id in its table (never backwards), so new rows get fresh ids. */
export async function moveSequences(db: TDb): Promise<void> {
  for (const table of SEQUENCE_TABLES) {
    await sql`select setval(s.seq, x.v, true)
      from (select pg_get_serial_sequence(${table}, 'id') as seq) s,
      lateral (select greatest((select coalesce(max(id), 0) from ${sql.id(table)}), coalesce(pg_sequence_last_value(s.seq::regclass), 0)) as v) x
      where s.seq is not null and x.v > 0`.execute(db);
  }
}
