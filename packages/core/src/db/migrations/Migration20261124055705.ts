import { Migration } from '@mikro-orm/migrations';

/** The event outbox, the announced visibility of vacancies and articles, and the retention watermark. */
export class Migration20261124055705 extends Migration {
  override name = 'Migration20261124055705';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "event_retention" ("tenant_id" int not null, "pruned_through" bigint not null, primary key ("tenant_id"));`,
    );

    this.addSql(
      `create table "events" ("seq" bigserial primary key, "id" varchar(40) not null default ('evt_' || replace(gen_random_uuid()::text, '-', '')), "tenant_id" int not null, "type" varchar(100) not null, "object" text not null, "object_id" varchar(100) not null, "slug" varchar(255) null, "data" jsonb not null, "occurred_at" timestamptz not null default now(), "position" bigint null);`,
    );
    this.addSql(`alter table "events" add constraint "events_id_unique" unique ("id");`);
    this.addSql(`create index "events_tenant_position_idx" on "events" ("tenant_id", "position");`);
    this.addSql(`create index "events_position_idx" on "events" ("position");`);
    this.addSql(`create index "events_occurred_at_idx" on "events" ("occurred_at");`);

    this.addSql(
      `create table "announced_visibilities" ("object" text not null, "object_id" int not null, "tenant_id" int not null, "visible" boolean not null, primary key ("object", "object_id"));`,
    );
    this.addSql(`create index "announced_visibilities_tenant_id_index" on "announced_visibilities" ("tenant_id");`);

    this.addSql(
      `alter table "events" add constraint "events_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "events" add constraint "events_object_check" check ("object" in ('vacancy', 'article', 'application', 'candidate', 'resume'));`,
    );

    this.addSql(
      `alter table "event_retention" add constraint "event_retention_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "announced_visibilities" add constraint "announced_visibilities_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "announced_visibilities" add constraint "announced_visibilities_object_check" check ("object" in ('vacancy', 'article'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "event_retention" cascade;`);
    this.addSql(`drop table if exists "events" cascade;`);
    this.addSql(`drop table if exists "announced_visibilities" cascade;`);
  }
}
