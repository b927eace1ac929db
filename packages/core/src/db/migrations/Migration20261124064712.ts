import { Migration } from '@mikro-orm/migrations';

export class Migration20261124064712 extends Migration {
  override name = 'Migration20261124064712';

  override up(): void | Promise<void> {
    this.addSql(`alter table "tenants" add "duplicate_applications" text not null default 'allow';`);
    this.addSql(
      `alter table "tenants" add constraint "tenants_duplicate_applications_check" check ("duplicate_applications" in ('allow', 'reject'));`,
    );
    this.addSql(`alter table "vacancies" add "questions" jsonb not null default '[]';`);
    this.addSql(`alter table "applications" add "answers" jsonb not null default '{}';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "applications" drop column "answers";`);
    this.addSql(`alter table "tenants" drop constraint "tenants_duplicate_applications_check";`);
    this.addSql(`alter table "tenants" drop column "duplicate_applications";`);
    this.addSql(`alter table "vacancies" drop column "questions";`);
  }
}
