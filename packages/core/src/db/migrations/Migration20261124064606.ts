import { Migration } from '@mikro-orm/migrations';

export class Migration20261124064606 extends Migration {
  override name = 'Migration20261124064606';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_keys" add "kind" varchar(20) not null default 'secret', add "origins" text[] null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_keys" drop column "kind", drop column "origins";`);
  }
}
