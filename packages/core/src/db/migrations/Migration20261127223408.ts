import { Migration } from '@mikro-orm/migrations';

/**
 * Privacy by design: the tenant's `privacy` settings, the consents stored with each application, and the tenant's
 * audit log.
 */
export class Migration20261127223408 extends Migration {
  override name = 'Migration20261127223408';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "audit_log_entries" ("id" bigserial primary key, "tenant_id" int not null, "actor" varchar(320) not null, "action" text not null, "subject" varchar(200) null, "details" jsonb not null default '{}', "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "audit_log_entries_tenant_id_id_index" on "audit_log_entries" ("tenant_id", "id");`);
    this.addSql(
      `alter table "audit_log_entries" add constraint "audit_log_entries_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "audit_log_entries" add constraint "audit_log_entries_action_check" check ("action" in ('api_key.created', 'api_key.revoked', 'api_access.switched', 'webhook.created', 'webhook.rotated', 'webhook.deleted', 'candidate.exported', 'candidate.erased', 'retention.swept'));`,
    );
    this.addSql(`alter table "tenants" add "privacy" jsonb not null default '{}';`);
    this.addSql(
      `alter table "applications" add "consent_processing" boolean not null default false, add "consent_talent_pool" boolean not null default false, add "consent_policy_version" varchar(100) null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit_log_entries" cascade;`);
    this.addSql(
      `alter table "applications" drop column "consent_processing", drop column "consent_talent_pool", drop column "consent_policy_version";`,
    );
    this.addSql(`alter table "tenants" drop column "privacy";`);
  }
}
