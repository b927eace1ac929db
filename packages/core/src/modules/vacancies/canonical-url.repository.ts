import type { TDb } from '../../db/kysely.ts';
import { isStorableText } from '../../lib/validation.ts';
import { visibleVacancy } from './vacancy-visibility.ts';

/** Stores the canonical URL of a visible vacancy; undefined when the slug names none. */
export async function storeCanonicalUrl(db: TDb, slug: string, url: string): Promise<{ slug: string } | undefined> {
  // PostgreSQL text never holds NUL (it refuses it as a parameter), so such a slug names nothing.
  if (!isStorableText(slug)) return undefined;
  return db
    .updateTable('vacancies')
    .set({ canonical_url: url })
    .where('slug', '=', slug)
    .where(visibleVacancy('vacancies'))
    .returning('slug')
    .executeTakeFirst();
}
