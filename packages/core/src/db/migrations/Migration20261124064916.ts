import { Migration } from '@mikro-orm/migrations';

export class Migration20261124064916 extends Migration {
  override name = 'Migration20261124064916';

  override up(): void | Promise<void> {
    this.addSql(`alter table "job_types" add "employment_type" text null;`);
    this.addSql(
      `alter table "job_types" add constraint "job_types_employment_type_check" check ("employment_type" in ('FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN', 'VOLUNTEER', 'PER_DIEM', 'OTHER'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "job_types" drop constraint "job_types_employment_type_check";`);
    this.addSql(`alter table "job_types" drop column "employment_type";`);
  }
}
