import { Migration } from '@mikro-orm/migrations';

const BODY = (
  comparison: string,
) => `create or replace function careers_bump_content_version() returns trigger language plpgsql as $$
begin
  -- Transition tables exist only for the operations that define them: previous_rows only in UPDATE.
  -- An update that changes nothing but live fields — view counts, a vacancy's reported canonical URL — or nothing
  -- at all (an upsert of the same values) is no change: readers take live fields fresh with every version.
  if TG_OP = 'UPDATE' then
    if ${comparison} then
      return null;
    end if;
    update tenants set content_version = content_version + 1
    where id in (select tenant_id from changed_rows union select tenant_id from previous_rows);
  else
    update tenants set content_version = content_version + 1 where id in (select tenant_id from changed_rows);
  end if;
  return null;
end $$;`;

/**
 * The content-version trigger compared old and new rows with `not exists (… join …)`: for EXISTS the planner
 * picks a nested loop (expecting an early match), which is quadratic when no row changed — a view-count flush
 * of 3 000 vacancies took 8.5 s in it (0.4 s without). Counting the changed rows lets it hash-join.
 */
export class Migration20261124064500 extends Migration {
  override name = 'Migration20261124064500';

  override up(): void | Promise<void> {
    this.addSql(
      BODY(`(
      select count(*) from previous_rows p join changed_rows c on c.id = p.id
      where (to_jsonb(p) - 'views_count' - 'canonical_url') is distinct from (to_jsonb(c) - 'views_count' - 'canonical_url')
    ) = 0`),
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      BODY(`not exists (
      select 1 from previous_rows p join changed_rows c on c.id = p.id
      where (to_jsonb(p) - 'views_count' - 'canonical_url') is distinct from (to_jsonb(c) - 'views_count' - 'canonical_url')
    )`),
    );
  }
}
