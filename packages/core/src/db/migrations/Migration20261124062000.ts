import { Migration } from '@mikro-orm/migrations';

/**
 * `resume.failed`, recorded by a trigger in the transaction that marks a resume failed — by the job (a file of the
 * wrong type, one that cannot be read) or by the dead-letter handler (retries used up) alike.
 */
export class Migration20261124062000 extends Migration {
  override name = 'Migration20261124062000';

  override up(): void | Promise<void> {
    this.addSql(`create function careers_resume_failed_events() returns trigger language plpgsql as $$
begin
  insert into events (tenant_id, type, object, object_id, slug, data)
  select c.tenant_id, 'resume.failed', 'resume', c.id::text, null, jsonb_build_object('id', c.id, 'error', c.error)
  from changed_rows c join previous_rows p on p.id = c.id
  where c.status = 'failed' and p.status <> 'failed'
  order by c.id;
  return null;
end $$;`);
    this.addSql(
      `create trigger "resume_processings_events_update" after update on "resume_processings" referencing old table as previous_rows new table as changed_rows for each statement execute function careers_resume_failed_events();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "resume_processings_events_update" on "resume_processings";`);
    this.addSql(`drop function careers_resume_failed_events();`);
  }
}
