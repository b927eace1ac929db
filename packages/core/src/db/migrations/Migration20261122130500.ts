import { Migration } from '@mikro-orm/migrations';

/** Link tables of the vacancy filters, each with the column that names the filter value. */
const FILTER_LINKS: Array<[table: string, column: string]> = [
  ['vacancy_job_types', 'job_type_id'],
  ['vacancy_experience_levels', 'experience_level_id'],
  ['vacancy_education_levels', 'education_level_id'],
  ['vacancy_tags', 'tag_id'],
];

const SORT_INDEXES: Array<[name: string, key: string]> = [
  ['vacancies_visible_published_idx', '"tenant_id", "published_at" desc, "id" desc'],
  ['vacancies_visible_created_idx', '"tenant_id", "created_at" desc, "id" desc'],
  ['vacancies_visible_title_idx', '"tenant_id", lower("title"), "id"'],
];

/**
 * Value → vacancy indexes on the filter link tables. Their primary keys lead with `vacancy_id`, which serves
 * "the tags of these vacancies" but not "the vacancies with this tag": a rare tag was found by reading the
 * whole link table (a filtered count of the benchmark tenant: 128 ms → 29 ms; EXPLAIN plans in the read-API
 * issue). The links are implicit many-to-many tables without entities, so these indexes live only here.
 */
export class Migration20261122130500 extends Migration {
  override name = 'Migration20261122130500';

  override up(): void | Promise<void> {
    for (const [table, column] of FILTER_LINKS) {
      this.addSql(`create index "${table}_${column}_vacancy_id_index" on "${table}" ("${column}", "vacancy_id");`);
    }
    // The list's sort indexes gain the columns of the visibility and the plain filters, so a page is cut
    // (OFFSET) by an index-only scan and only its own rows are read (page 2 000 of the benchmark tenant: 90 ms → see the issue note).
    for (const [name, key] of SORT_INDEXES) {
      this.addSql(`drop index "${name}";`);
      this.addSql(
        `create index "${name}" on "vacancies" (${key}) include ("ends_at", "language", "location_id", "department_id", "company_location_id") where "status" = 'published' and 'api' = any("channels");`,
      );
    }
  }

  override down(): void | Promise<void> {
    for (const [table, column] of FILTER_LINKS) this.addSql(`drop index "${table}_${column}_vacancy_id_index";`);
    for (const [name, key] of SORT_INDEXES) {
      this.addSql(`drop index "${name}";`);
      this.addSql(
        `create index "${name}" on "vacancies" (${key}) where "status" = 'published' and 'api' = any("channels");`,
      );
    }
  }
}
