import { Migration } from '@mikro-orm/migrations';

/**
 * Commit order for the event outbox. An event row is inserted with a null `position`; a deferred constraint
 * trigger gives all of a transaction's events their positions at its commit, holding a transaction-level
 * advisory lock until the commit is done. PostgreSQL makes a commit visible before it releases the committing
 * transaction's locks, so positions are handed out in commit order: a reader that sees position N has already been
 * able to see every position below it (or that position's transaction rolled back, leaving a gap). Readers therefore
 * page by `position > cursor` with no horizon and never skip an entry that committed late — unlike ids or
 * xids taken when a transaction starts writing. The lock covers only the few milliseconds of a commit, and only
 * of transactions that recorded events.
 */
export class Migration20261124055800 extends Migration {
  override name = 'Migration20261124055800';

  override up(): void | Promise<void> {
    this.addSql(`create sequence "events_position_seq" as bigint;`);
    // The open transaction's own events (the only unpositioned rows it can see): sequencing and de-duplication.
    this.addSql(`create index "events_unsequenced_idx" on "events" ("object", "object_id") where "position" is null;`);
    this.addSql(`create function careers_sequence_events() returns trigger language plpgsql as $$
begin
  -- Fired once per event row at commit; the first firing positions every event of the transaction.
  if current_setting('careers.events_sequenced', true) = pg_current_xact_id()::text then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('careers.events.position', 0));
  update events e set position = o.position
  from (select s.seq, nextval('events_position_seq') as position
        from (select seq from events where position is null order by seq) s) o
  where e.seq = o.seq;
  perform set_config('careers.events_sequenced', pg_current_xact_id()::text, true);
  return null;
end $$;`);
    this.addSql(
      `create constraint trigger "events_sequence_at_commit" after insert on "events" deferrable initially deferred for each row execute function careers_sequence_events();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "events_sequence_at_commit" on "events";`);
    this.addSql(`drop function careers_sequence_events();`);
    this.addSql(`drop index "events_unsequenced_idx";`);
    this.addSql(`drop sequence "events_position_seq";`);
  }
}
