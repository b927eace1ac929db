import { Migration } from '@mikro-orm/migrations';
import { rewriteFunctions, type TFunctionRewrite } from './support/rewrite-functions.ts';

/**
 * Where a function looks up the transaction's own unpositioned events: [function, text before, text after]. The
 * commit-order trigger (Migration20261124055800) compares with a variable: with the function call inline its plan read
 * four times the blocks (events-outbox.test.ts). The content-event functions' de-duplication (Migration20261124061000)
 * runs once per statement and calls it inline.
 */
const OWN_EVENT_LOOKUPS: TFunctionRewrite[] = [
  [
    'careers_sequence_events()',
    '\nbegin\n  -- Fired once per event row',
    '\ndeclare\n  own_xact xid8 := pg_current_xact_id();\nbegin\n  -- Fired once per event row',
  ],
  [
    'careers_sequence_events()',
    'from events where position is null order by seq',
    'from events where writer_xact = own_xact and position is null order by seq',
  ],
  ...['careers_vacancy_events_for(int[], boolean)', 'careers_article_events_for(int[], boolean)'].map(
    (signature): [string, string, string] => [
      signature,
      'e.position is null and e.object =',
      'e.writer_xact = pg_current_xact_id() and e.position is null and e.object =',
    ],
  ),
];

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
    this.addSql(
      `create index "events_unsequenced_idx" on "events" ("writer_xact", "object") where "position" is null;`,
    );
    this.addSql(rewriteFunctions(OWN_EVENT_LOOKUPS, 'forward'));
  }

  override down(): void | Promise<void> {
    this.addSql(rewriteFunctions(OWN_EVENT_LOOKUPS, 'back'));
    this.addSql(`drop index "events_unsequenced_idx";`);
    this.addSql(`create index "events_unsequenced_idx" on "events" ("object", "object_id") where "position" is null;`);
    this.addSql(`alter table "events" drop column "writer_xact";`);
  }
}
