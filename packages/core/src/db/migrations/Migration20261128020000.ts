import { Migration } from '@mikro-orm/migrations';
import { rewriteFunctions, type TFunctionRewrite } from './support/rewrite-functions.ts';

/**
 * The advisory lock key (first half) of a transaction that is positioning its events; the second half is its
 * backend's pid, so committers never wait for each other. `careers_events_horizon()` looks for it in `pg_locks`.
 */
const COMMITTING = 716_001;

const OWN_BACKEND_LOCK: TFunctionRewrite[] = [
  [
    'careers_sequence_events()',
    "perform pg_advisory_xact_lock(hashtextextended('careers.events.position', 0));",
    `perform pg_advisory_xact_lock(${COMMITTING}, pg_backend_pid());`,
  ],
];

/**
 * Event numbering that does not serialize unrelated transactions. Positions are still drawn at commit (the deferred
 * trigger of Migration20261124055800), but under a lock of the committing backend's own instead of one global lock,
 * which held every writing transaction of every tenant in line through its WAL flush (no group commit).
 *
 * Concurrent committers may now become visible in another order than they drew their positions, so a reader no
 * longer pages by `position > cursor` alone: it first asks `careers_events_horizon()` for a position below which
 * every entry is final. The function reads how far the sequence has drawn, then waits for every transaction that
 * holds a committing lock at that moment (each holds it from drawing until its commit is visible, a few
 * milliseconds): whatever drew a position up to the horizon has then committed or rolled back, and whatever draws
 * later gets a higher one. A committer that takes longer than a second (a synchronous standby that does not answer)
 * makes it return null: the reader then reads nothing new this time, and misses nothing.
 */
export class Migration20261128020000 extends Migration {
  override name = 'Migration20261128020000';

  override up(): void | Promise<void> {
    this.addSql(rewriteFunctions(OWN_BACKEND_LOCK, 'forward'));
    this.addSql(`create function careers_events_horizon() returns bigint language plpgsql volatile as $$
declare
  horizon bigint;
  committer int;
  previous_timeout text := current_setting('lock_timeout');
begin
  select case when is_called then last_value else last_value - 1 end into horizon from events_position_seq;
  perform set_config('lock_timeout', '1s', true);
  for committer in
    select objid::int from pg_locks
    where locktype = 'advisory' and classid = ${COMMITTING} and objsubid = 2 and granted and pid <> pg_backend_pid()
  loop
    begin
      perform pg_advisory_xact_lock_shared(${COMMITTING}, committer);
    exception when lock_not_available then
      perform set_config('lock_timeout', previous_timeout, true);
      return null;
    end;
  end loop;
  perform set_config('lock_timeout', previous_timeout, true);
  return horizon;
end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql('drop function careers_events_horizon();');
    this.addSql(rewriteFunctions(OWN_BACKEND_LOCK, 'back'));
  }
}
