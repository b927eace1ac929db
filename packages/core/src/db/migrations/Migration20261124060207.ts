import { Migration } from '@mikro-orm/migrations';

export class Migration20261124060207 extends Migration {
  override name = 'Migration20261124060207';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "webhook_dispatch_cursors" ("name" varchar(64) not null, "position" bigint not null default '0', "updated_at" timestamptz not null default now(), primary key ("name"));`,
    );

    this.addSql(
      `create table "webhook_endpoints" ("id" serial primary key, "tenant_id" int not null, "url" varchar(2048) not null, "event_types" text[] not null default '{}', "secret_encrypted" text not null, "previous_secret_encrypted" text null, "previous_secret_expires_at" timestamptz null, "disabled_at" timestamptz null, "disabled_reason" varchar(255) null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "webhook_endpoints_tenant_id_index" on "webhook_endpoints" ("tenant_id");`);

    this.addSql(
      `create table "webhook_deliveries" ("id" serial primary key, "tenant_id" int not null, "endpoint_id" int not null, "event_id" varchar(64) not null, "event_type" varchar(64) not null, "payload" text not null, "state" varchar(16) not null default 'pending', "attempts" int not null default 0, "last_status_code" int null, "last_error" text null, "last_response" text null, "last_attempt_at" timestamptz null, "next_attempt_at" timestamptz null, "delivered_at" timestamptz null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "webhook_deliveries_tenant_id_index" on "webhook_deliveries" ("tenant_id");`);
    this.addSql(
      `create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where "state" = 'pending';`,
    );
    this.addSql(
      `create index "webhook_deliveries_endpoint_id_created_at_index" on "webhook_deliveries" ("endpoint_id", "created_at");`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_event_id_unique" unique ("endpoint_id", "event_id");`,
    );

    this.addSql(
      `alter table "webhook_endpoints" add constraint "webhook_endpoints_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_endpoint_id_foreign";`);

    this.addSql(`drop table if exists "webhook_dispatch_cursors" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
  }
}
