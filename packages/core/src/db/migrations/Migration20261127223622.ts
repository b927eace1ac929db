import { Migration } from '@mikro-orm/migrations';

/**
 * Guarding the shared service: a place for secrets every process shares (the change-feed cursor key), and what the
 * fair webhook claim reads — how many attempts an endpoint has failed in a row, which deliveries hold a slot right
 * now (`leased_until`), and each endpoint's due deliveries in order.
 */
export class Migration20261127223622 extends Migration {
  override name = 'Migration20261127223622';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "server_secrets" ("name" varchar(64) not null, "secret" varchar(64) not null, "created_at" timestamptz not null default now(), primary key ("name"));`,
    );
    this.addSql(`alter table "webhook_endpoints" add "consecutive_failures" int not null default 0;`);
    this.addSql(`alter table "webhook_deliveries" add "leased_until" timestamptz null;`);
    this.addSql(
      `create index "webhook_deliveries_endpoint_due_idx" on "webhook_deliveries" ("endpoint_id", "next_attempt_at", "id") where "state" = 'pending';`,
    );
    this.addSql(
      `create index "webhook_deliveries_leased_idx" on "webhook_deliveries" ("endpoint_id") where "leased_until" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_endpoint_due_idx";`);
    this.addSql(`drop index "webhook_deliveries_leased_idx";`);
    this.addSql(`alter table "webhook_deliveries" drop column "leased_until";`);
    this.addSql(`alter table "webhook_endpoints" drop column "consecutive_failures";`);
    this.addSql(`drop table if exists "server_secrets" cascade;`);
  }
}
