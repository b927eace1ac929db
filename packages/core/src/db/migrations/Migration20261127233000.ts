import { Migration } from '@mikro-orm/migrations';

/** Tenant columns whose change changes public answers (labels, URLs, structured data): a change bumps the content version. */
const ANSWER_COLUMNS = ['name', 'default_language', 'url_pattern', 'career_site_domain', 'default_country'];

/**
 * Remote work: a vacancy's `workplace_type` (`on_site`, `hybrid`, `remote`) and, for remote ones, the countries it may
 * be done from (`remote_countries`, ISO codes); a tenant's `default_country` (a remote job's applicant location when it
 * names none). The tenants table is no content table, so changing a column that answers show bumps the tenant's
 * content version in the same row update (BEFORE UPDATE: no second statement, no recursion).
 */
export class Migration20261127233000 extends Migration {
  override name = 'Migration20261127233000';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "vacancies" add column "workplace_type" text not null default 'on_site', add column "remote_countries" text[] not null default '{}';`,
    );
    this.addSql(`alter table "tenants" add column "default_country" varchar(2) null;`);
    const changed = ANSWER_COLUMNS.map((column) => `new."${column}" is distinct from old."${column}"`).join(' or ');
    this.addSql(`create function careers_bump_tenant_answers() returns trigger language plpgsql as $$
begin
  if ${changed} then
    new.content_version := old.content_version + 1;
  end if;
  return new;
end $$;`);
    this.addSql(
      `create trigger "tenants_answers_update" before update on "tenants" for each row execute function careers_bump_tenant_answers();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "tenants_answers_update" on "tenants";`);
    this.addSql(`drop function careers_bump_tenant_answers();`);
    this.addSql(`alter table "tenants" drop column "default_country";`);
    this.addSql(`alter table "vacancies" drop column "workplace_type", drop column "remote_countries";`);
  }
}
