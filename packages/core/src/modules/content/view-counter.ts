import type { MikroORM } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { crossTenantDb } from '../../db/kysely.ts';

type TCountedTable = 'vacancies' | 'articles';

/**
 * Counts detail views in memory and adds them to the rows in one statement per table, at most
 * `intervalMs` late — so a popular vacancy is not a contended row updated on every read.
 */
export class ViewCounter {
  readonly #orm: MikroORM;
  readonly #pending: Record<TCountedTable, Map<number, number>> = { vacancies: new Map(), articles: new Map() };

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  record(table: TCountedTable, id: number): void {
    const counts = this.#pending[table];
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }

  async flush(): Promise<void> {
    for (const table of ['vacancies', 'articles'] as const) {
      const counts = this.#pending[table];
      if (counts.size === 0) continue;
      const entries = [...counts.entries()];
      counts.clear();
      try {
        const ids = entries.map(([id]) => id);
        const increments = entries.map(([, n]) => n);
        await sql`update ${sql.table(table)} as t set views_count = t.views_count + v.n
          from unnest(${ids}::int[], ${increments}::int[]) as v(id, n) where t.id = v.id`.execute(
          crossTenantDb(this.#orm.em.fork()),
        );
      } catch (error) {
        // Put the counts back so a database hiccup loses no views; the next flush retries.
        for (const [id, n] of entries) counts.set(id, (counts.get(id) ?? 0) + n);
        throw error;
      }
    }
  }
}
