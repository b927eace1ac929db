import { Migration } from '@mikro-orm/migrations';

/** The content-event functions whose de-duplication looks up the transaction's own unpositioned events. */
const DEDUPLICATING_FUNCTIONS = ['careers_vacancy_events_for(int[], boolean)', 'careers_article_events_for(int[], boolean)'];
const OWN_EVENTS_BEFORE = 'e.position is null and e.object =';
const OWN_EVENTS_AFTER = 'e.writer_xact = pg_current_xact_id() and e.position is null and e.object =';

/**
 * Finds a transaction's own unpositioned events by its transaction id instead of by `position is null` alone.
 *
 * An event's index entry under `position is null` outlives the row version it points to until VACUUM: positioning
 * at commit writes a new version, and a bitmap scan never marks the old entry dead. Every commit's sequencing
 * therefore walked all events positioned since the table was last vacuumed (20 % of it, by default) — under the
 * global advisory lock. Measured with perf in `pnpm bench post-applications`: a quarter of PostgreSQL's CPU.
 * Keyed by the writing transaction, the lookup descends straight to the transaction's own entries, however many
 * dead ones the index holds.
 *
 * The column is added without a default first and gets it afterwards, so existing rows are not rewritten (they
 * are all positioned; only new rows need it).
 */
export class Migration20261126214500 extends Migration {
  override name = 'Migration20261126214500';

  override up(): void | Promise<void> {
    this.addSql(`alter table "events" add column "writer_xact" xid8 null;`);
    this.addSql(`alter table "events" alter column "writer_xact" set default pg_current_xact_id();`);
    this.addSql(`drop index "events_unsequenced_idx";`);
    this.addSql(`create index "events_unsequenced_idx" on "events" ("writer_xact", "object") where "position" is null;`);
    this.addSql(`create or replace function careers_sequence_events() returns trigger language plpgsql as $$
declare
  own_xact xid8 := pg_current_xact_id();
begin
  -- Fired once per event row at commit; the first firing positions every event of the transaction.
  if current_setting('careers.events_sequenced', true) = own_xact::text then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('careers.events.position', 0));
  update events e set position = o.position
  from (select s.seq, nextval('events_position_seq') as position
        from (select seq from events where writer_xact = own_xact and position is null order by seq) s) o
  where e.seq = o.seq;
  perform set_config('careers.events_sequenced', own_xact::text, true);
  return null;
end $$;`);
    this.addSql(rewriteFunctions(OWN_EVENTS_BEFORE, OWN_EVENTS_AFTER));
  }

  override down(): void | Promise<void> {
    this.addSql(rewriteFunctions(OWN_EVENTS_AFTER, OWN_EVENTS_BEFORE));
    this.addSql(`create or replace function careers_sequence_events() returns trigger language plpgsql as $$
begin
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
    this.addSql(`drop index "events_unsequenced_idx";`);
    this.addSql(`create index "events_unsequenced_idx" on "events" ("object", "object_id") where "position" is null;`);
    this.addSql(`alter table "events" drop column "writer_xact";`);
  }
}

/**
 * Re-creates the de-duplicating functions with one condition replaced. They are generated per object in
 * Migration20261124061000; editing their stored definitions changes that one condition without a second copy of
 * their bodies. Fails if a definition does not contain the condition exactly once.
 */
function rewriteFunctions(before: string, after: string): string {
  return `do $$
declare
  signature text;
  definition text;
begin
  foreach signature in array array[${DEDUPLICATING_FUNCTIONS.map((name) => `'${name}'`).join(', ')}] loop
    definition := pg_get_functiondef(signature::regprocedure);
    if array_length(string_to_array(definition, '${before}'), 1) <> 2 then
      raise exception 'expected one "%" in %', '${before}', signature;
    end if;
    execute replace(definition, '${before}', '${after}');
  end loop;
end $$;`;
}
