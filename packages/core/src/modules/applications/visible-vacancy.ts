import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { TDB } from '../../db/kysely.ts';

/**
 * CONTRACT's visibility of a vacancy: published, on the `api` channel, published_at ≤ now, not ended.
 * Used with `.where(isVisibleVacancy)` on a query over `vacancies` (unaliased). The same rule as the
 * vacancies repository's (private, aliased) predicate.
 */
export function isVisibleVacancy(eb: ExpressionBuilder<TDB, 'vacancies'>) {
  return eb.and([
    // Literals, not parameters, so the planner can use the partial `vacancies_visible_*` indexes.
    eb('vacancies.status', '=', sql.lit('published')),
    sql<SqlBool>`${sql.lit('api')} = any(${sql.ref('vacancies.channels')})`,
    eb('vacancies.published_at', '<=', sql<Date>`now()`),
    eb.or([eb('vacancies.ends_at', 'is', null), eb('vacancies.ends_at', '>', sql<Date>`now()`)]),
  ]);
}

const MAX_INT4 = 2_147_483_647;

/** An id a PostgreSQL integer column can hold (larger ones name nothing, and must not reach the query). */
export function isStorableId(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_INT4;
}
