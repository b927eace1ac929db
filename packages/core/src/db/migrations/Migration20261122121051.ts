import { Migration } from '@mikro-orm/migrations';

/** Tables of a tenant's public content (what the read endpoints serve), each with a `tenant_id`. */
const CONTENT_TABLES = [
  'vacancies',
  'locations',
  'departments',
  'companies',
  'company_locations',
  'job_types',
  'experience_levels',
  'education_levels',
  'tags',
  'team_roles',
  'team_members',
  'articles',
  'article_translations',
];

/** Link tables without a `tenant_id`: the tenant is found through the row they belong to. */
const LINK_TABLES: Array<[table: string, column: string, owner: string]> = [
  ['vacancy_job_types', 'vacancy_id', 'vacancies'],
  ['vacancy_experience_levels', 'vacancy_id', 'vacancies'],
  ['vacancy_education_levels', 'vacancy_id', 'vacancies'],
  ['vacancy_tags', 'vacancy_id', 'vacancies'],
  ['article_tags', 'article_id', 'articles'],
];

/**
 * `tenants.content_version`: bumped, in the writing transaction, by every statement that changes a tenant's
 * public content — whoever runs it (import, API, a migration, a hand-written fix). Readers key their caches by
 * the tenant row's version, so every API process sees a change as soon as it is committed. Statement-level
 * triggers with transition tables: one bump per statement and tenant, however many rows it touches. An update
 * that only changes live fields (view counts from the batched counter, a vacancy's reported canonical URL), or
 * writes the values a row already has (a repeated import), is not a content change: readers take live fields
 * fresh with every version (see ContentCache).
 */
export class Migration20261122121051 extends Migration {
  override name = 'Migration20261122121051';

  override up(): void | Promise<void> {
    this.addSql(`alter table "tenants" add "content_version" bigint not null default '0';`);
    // Readers ask for the next time a vacancy's visibility changes by time alone (published_at / ends_at passing).
    this.addSql(
      `create index "vacancies_visible_ends_idx" on "vacancies" ("tenant_id", "ends_at") where status = 'published' and 'api' = any(channels);`,
    );
    this.addSql(`create function careers_bump_content_version() returns trigger language plpgsql as $$
begin
  -- Transition tables exist only for the operations that define them: previous_rows only in UPDATE.
  -- An update that changes nothing but live fields — view counts, a vacancy's reported canonical URL — or nothing
  -- at all (an upsert of the same values) is no change: readers take live fields fresh with every version.
  if TG_OP = 'UPDATE' then
    if not exists (
      select 1 from previous_rows p join changed_rows c on c.id = p.id
      where (to_jsonb(p) - 'views_count' - 'canonical_url') is distinct from (to_jsonb(c) - 'views_count' - 'canonical_url')
    ) then
      return null;
    end if;
    update tenants set content_version = content_version + 1
    where id in (select tenant_id from changed_rows union select tenant_id from previous_rows);
  else
    update tenants set content_version = content_version + 1 where id in (select tenant_id from changed_rows);
  end if;
  return null;
end $$;`);
    this.addSql(`create function careers_bump_content_version_via_owner() returns trigger language plpgsql as $$
begin
  execute format('update tenants set content_version = content_version + 1 where id in (select o.tenant_id from %I o where o.id in (select %I from changed_rows))', TG_ARGV[1], TG_ARGV[0]);
  return null;
end $$;`);
    for (const table of CONTENT_TABLES) {
      this.addSql(
        `create trigger "${table}_content_insert" after insert on "${table}" referencing new table as changed_rows for each statement execute function careers_bump_content_version();`,
      );
      this.addSql(
        `create trigger "${table}_content_update" after update on "${table}" referencing old table as previous_rows new table as changed_rows for each statement execute function careers_bump_content_version();`,
      );
      this.addSql(
        `create trigger "${table}_content_delete" after delete on "${table}" referencing old table as changed_rows for each statement execute function careers_bump_content_version();`,
      );
    }
    for (const [table, column, owner] of LINK_TABLES) {
      const args = `'${column}', '${owner}'`;
      this.addSql(
        `create trigger "${table}_content_insert" after insert on "${table}" referencing new table as changed_rows for each statement execute function careers_bump_content_version_via_owner(${args});`,
      );
      this.addSql(
        `create trigger "${table}_content_update" after update on "${table}" referencing new table as changed_rows for each statement execute function careers_bump_content_version_via_owner(${args});`,
      );
      this.addSql(
        `create trigger "${table}_content_delete" after delete on "${table}" referencing old table as changed_rows for each statement execute function careers_bump_content_version_via_owner(${args});`,
      );
    }
  }

  override down(): void | Promise<void> {
    for (const table of [...CONTENT_TABLES, ...LINK_TABLES.map(([name]) => name)]) {
      for (const operation of ['insert', 'update', 'delete'])
        this.addSql(`drop trigger "${table}_content_${operation}" on "${table}";`);
    }
    this.addSql(`drop function careers_bump_content_version_via_owner();`);
    this.addSql(`drop index "vacancies_visible_ends_idx";`);
    this.addSql(`drop function careers_bump_content_version();`);
    this.addSql(`alter table "tenants" drop column "content_version";`);
  }
}
