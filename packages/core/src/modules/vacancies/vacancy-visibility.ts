import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The part of CONTRACT's visibility that time does not change, on the table alias given: published, on the `api`
 * channel. Literals (not parameters), so the planner can use the partial `vacancies_visible_*` indexes, whose
 * predicate is exactly this.
 */
export function publishedOnApi(alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${alias}.status`)} = 'published' and 'api' = any(${sql.ref(`${alias}.channels`)}))`;
}

/**
 * CONTRACT's visibility of a vacancy, on the table alias given: published, on the `api` channel, published_at ≤ now,
 * not ended. `at`: the moment to judge at (default the database's now()).
 */
export function visibleVacancy(alias: string, at?: Date): RawBuilder<SqlBool> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const now = at ?? sql`now()`;
  return sql<SqlBool>`(${publishedOnApi(alias)} and ${column('published_at')} <= ${now} and (${column('ends_at')} is null or ${column('ends_at')} > ${now}))`;
}
