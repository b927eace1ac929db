import { Migration } from '@mikro-orm/migrations';
import { sanitizeTenantHtml } from '../../lib/tenant-html.ts';

const PAGE = 1000;

/** `new URL(v).href`, or null for a URL no browser would parse or too long once normalized (the API refuses both). */
function normalizedUrl(value: string): string | null {
  const href = URL.canParse(value) ? new URL(value).href : null;
  return href !== null && href.length <= 2048 ? href : null;
}

/**
 * Vacancies stored before the import sanitized their HTML, and canonical URLs stored as sent: both made safe the way
 * new ones are (`sanitizeTenantHtml`, `new URL(v).href`). Rows that change record `vacancy.updated` like any change of
 * public content. Nothing to undo: the stored text is not kept.
 */
export class Migration20261127230000 extends Migration {
  override name = 'Migration20261127230000';

  override async up(): Promise<void> {
    for (let after = 0; ; ) {
      const rows = (await this.execute(
        `select id, summary, description, requirements, offer, canonical_url from vacancies
         where id > ? and (concat(summary, description, requirements, offer) ~ '[<>&"]' or canonical_url is not null)
         order by id limit ?`,
        [after, PAGE],
      )) as Array<{
        id: number;
        summary: string | null;
        description: string | null;
        requirements: string | null;
        offer: string | null;
        canonical_url: string | null;
      }>;
      for (const row of rows) {
        const html = (value: string | null) => (value === null ? null : sanitizeTenantHtml(value));
        const next = [
          html(row.summary),
          html(row.description),
          html(row.requirements),
          html(row.offer),
          row.canonical_url === null ? null : normalizedUrl(row.canonical_url),
        ];
        const before = [row.summary, row.description, row.requirements, row.offer, row.canonical_url];
        if (next.some((value, i) => value !== before[i])) {
          await this.execute(
            'update vacancies set summary = ?, description = ?, requirements = ?, offer = ?, canonical_url = ? where id = ?',
            [...next, row.id],
          );
        }
      }
      if (rows.length < PAGE) return;
      after = rows.at(-1)!.id;
    }
  }

  override down(): void {}
}
