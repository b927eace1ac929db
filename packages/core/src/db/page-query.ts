import { sql, type SelectQueryBuilder } from 'kysely';
import { pageOffset } from '../lib/pagination.ts';

/** What a filtered listing is before it selects anything (Kysely's own type of `selectFrom`). */
// biome-ignore lint/complexity/noBannedTypes: Kysely types a query that selects nothing yet as `{}`.
type TNothingSelected = {};

/**
 * One page of a listing and its total in one query — a window count rides along with the rows — and a second
 * query only for a page past the end (no rows to carry the count). `rowsOf` selects the columns and the order
 * (ending in a unique key, so pages never overlap).
 */
export async function findPageWithTotal<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, TNothingSelected>,
  rowsOf: (query: SelectQueryBuilder<DB, TB, TNothingSelected>) => SelectQueryBuilder<DB, TB, O>,
  page: { page: number; perPage: number },
): Promise<{ rows: O[]; total: number }> {
  const rows = await rowsOf(base)
    .select(sql<number>`(count(*) over ())::int`.as('total'))
    .limit(page.perPage)
    .offset(pageOffset(page.page, page.perPage))
    .execute();
  const first = rows[0];
  if (first) return { rows: rows as O[], total: (first as { total: number }).total };
  const counted = (await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirst()) as
    | { total: number }
    | undefined;
  return { rows: [], total: counted?.total ?? 0 };
}
