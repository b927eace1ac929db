import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * CONTRACT's visibility of a vacancy, on the table alias given: published, on the `api` channel,
 * published_at ≤ now, not ended. Status and channel are literals (not parameters) so the planner can
 * use the partial `vacancies_visible_*` indexes, whose predicate is exactly that part.
 */
export function visibleVacancy(alias: string): RawBuilder<SqlBool> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<SqlBool>`(${column('status')} = 'published' and 'api' = any(${column('channels')}) and ${column('published_at')} <= now() and (${column('ends_at')} is null or ${column('ends_at')} > now()))`;
}
