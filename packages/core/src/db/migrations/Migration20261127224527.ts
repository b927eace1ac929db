import { Migration } from '@mikro-orm/migrations';

/**
 * A candidate's profile read from a resume (headline, location, links, experience, education, skills, languages):
 * one jsonb column, null for candidates not made from a resume. Added without a default: no existing row is rewritten.
 * (Generated, then cut to this statement: the diff also listed the hand-written event functions it cannot describe.)
 */
export class Migration20261127224527 extends Migration {
  override name = 'Migration20261127224527';

  override up(): void | Promise<void> {
    this.addSql(`alter table "candidates" add "profile" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "candidates" drop column "profile";`);
  }
}
