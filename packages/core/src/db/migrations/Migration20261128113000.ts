import { Migration } from '@mikro-orm/migrations';

/**
 * The position indexes hold positioned events only. With null positions in them (every event while its transaction
 * is open, and every such row version until VACUUM), the planner, once ANALYZE had run, found a transaction's own
 * events at commit by `position is null` in `events_position_idx` instead of by its writer in
 * `events_unsequenced_idx`, and walked every dead entry since the last VACUUM: 24 blocks a commit became 110 after
 * 2 000 earlier events (events-outbox.test.ts). Readers ask `position > cursor`, which implies `is not null`, so the
 * partial indexes still serve them.
 */
export class Migration20261128113000 extends Migration {
  override name = 'Migration20261128113000';

  override up(): void | Promise<void> {
    this.addSql('drop index "events_position_idx";');
    this.addSql('create index "events_position_idx" on "events" ("position") where "position" is not null;');
    this.addSql('drop index "events_tenant_position_idx";');
    this.addSql(
      'create index "events_tenant_position_idx" on "events" ("tenant_id", "position") where "position" is not null;',
    );
  }

  override down(): void | Promise<void> {
    this.addSql('drop index "events_position_idx";');
    this.addSql('create index "events_position_idx" on "events" ("position");');
    this.addSql('drop index "events_tenant_position_idx";');
    this.addSql('create index "events_tenant_position_idx" on "events" ("tenant_id", "position");');
  }
}
