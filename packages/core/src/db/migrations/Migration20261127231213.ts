import { Migration } from '@mikro-orm/migrations';

/** Addresses an account signed in from before (hashed): their right passwords are never refused for others' failures. */
export class Migration20261127231213 extends Migration {
  override name = 'Migration20261127231213';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "known_sign_in_addresses" ("account_hash" varchar(64) not null, "address_hash" varchar(64) not null, "last_signed_in_at" timestamptz not null default now(), primary key ("account_hash", "address_hash"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "known_sign_in_addresses" cascade;`);
  }
}
