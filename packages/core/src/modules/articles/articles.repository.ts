import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { TDB, TDb } from '../../db/kysely.ts';
import { findPageWithTotal } from '../../db/page-query.ts';
import type { TTranslations } from '../taxonomies/taxonomy.entity.ts';
import type { TImageSet } from '../vacancies/vacancy.entity.ts';
import type { ARTICLE_TYPES } from './article.entity.ts';
import { isStorableText } from '../../lib/validation.ts';

export type TArticleType = (typeof ARTICLE_TYPES)[number];
export type TArticleSort = 'published_at' | 'title' | 'created_at' | 'views_count';

/** Which content of an article a query returns. */
export type TContentChoice =
  /** Only articles with content in this language, and that content. */
  | { only: string }
  /** The first language of the list an article has content in, else its alphabetically first language. */
  | { prefer: string[] };

export type TArticleFilters = {
  type?: TArticleType;
  isFeatured?: boolean;
  search?: string;
  /** Tag ids including their descendants. */
  tagIds?: number[];
};

export type TArticleRow = {
  id: number;
  slug: string;
  type: string;
  is_featured: boolean;
  views_count: number;
  published_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
  featured_image: TImageSet | null;
  language: string;
  title: string;
  excerpt: string | null;
  body_html: string;
  seo_title: string | null;
  seo_description: string | null;
  /** The article's tags, by id. */
  tags: TArticleTagRow[];
};

export type TArticleTagRow = { id: number; name: TTranslations; parent_id: number | null };

const COLUMNS = [
  'a.id',
  'a.slug',
  'a.type',
  'a.is_featured',
  'a.views_count',
  'a.published_at',
  'a.expires_at',
  'a.created_at',
  'a.featured_image',
  'c.language',
  'c.title',
  'c.excerpt',
  'c.body_html',
  'c.seo_title',
  'c.seo_description',
] as const;

/** An article's tags as a JSON array (by id), read with the article: one round trip for a page or a detail. */
function articleTags(eb: ExpressionBuilder<TDB & { a: TDB['articles'] }, 'a'>) {
  return eb
    .selectFrom('article_tags as at')
    .innerJoin('tags as tg', 'tg.id', 'at.tag_id')
    .select(
      sql<
        TArticleTagRow[]
      >`coalesce(json_agg(json_build_object('id', ${sql.ref('tg.id')}, 'name', ${sql.ref('tg.name')}, 'parent_id', ${sql.ref('tg.parent_id')}) order by ${sql.ref('tg.id')}), '[]'::json)`.as(
        'tags',
      ),
    )
    .whereRef('at.article_id', '=', 'a.id')
    .as('tags');
}

/** Visible articles (CONTRACT: published, published_at ≤ now, not expired) joined to the chosen content. */
function visibleArticles(db: TDb, choice: TContentChoice) {
  return db
    .selectFrom('articles as a')
    .innerJoinLateral(
      (eb) => {
        let content = eb
          .selectFrom('article_translations as t')
          .select(['t.language', 't.title', 't.excerpt', 't.body_html', 't.seo_title', 't.seo_description'])
          .whereRef('t.article_id', '=', 'a.id');
        if ('only' in choice) return content.where('t.language', '=', choice.only).as('c');
        for (const language of choice.prefer) {
          content = content.orderBy(sql`${sql.ref('t.language')} = ${language}`, 'desc');
        }
        return content.orderBy('t.language', 'asc').limit(1).as('c');
      },
      (join) => join.onTrue(),
    )
    .where('a.status', '=', 'published')
    .where('a.published_at', '<=', sql<Date>`now()`)
    .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', sql<Date>`now()`)]));
}

function filtered(db: TDb, choice: TContentChoice, filters: TArticleFilters) {
  let query = visibleArticles(db, choice);
  // PostgreSQL text never holds NUL (it refuses it as a parameter), so a text filter with one matches nothing.
  if (Object.values(filters).some((value) => typeof value === 'string' && !isStorableText(value)))
    return query.where(sql<SqlBool>`false`);
  if (filters.type) query = query.where('a.type', '=', filters.type);
  if (filters.isFeatured !== undefined) query = query.where('a.is_featured', '=', filters.isFeatured);
  const term = filters.search;
  if (term) {
    query = query.where(
      sql<SqlBool>`(strpos(lower(${sql.ref('c.title')}), lower(${term})) > 0 or strpos(lower(${sql.ref('c.excerpt')}), lower(${term})) > 0)`,
    );
  }
  const tagIds = filters.tagIds;
  if (tagIds) {
    if (tagIds.length === 0) return query.where(sql<SqlBool>`false`);
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('article_tags as at')
          .select('at.article_id')
          .whereRef('at.article_id', '=', 'a.id')
          .where('at.tag_id', 'in', tagIds),
      ),
    );
  }
  return query;
}

const SORT_KEYS = {
  published_at: sql.ref('a.published_at'),
  title: sql`lower(${sql.ref('c.title')})`,
  created_at: sql.ref('a.created_at'),
  views_count: sql.ref('a.views_count'),
} as const;

/** One page of visible articles with their chosen content, and the total. */
export async function findArticlesPage(
  db: TDb,
  choice: TContentChoice,
  filters: TArticleFilters,
  order: { sort: TArticleSort; direction: 'asc' | 'desc' },
  page: { page: number; perPage: number },
): Promise<{ rows: TArticleRow[]; total: number }> {
  const { rows, total } = await findPageWithTotal(
    filtered(db, choice, filters),
    (query) =>
      query
        .select(COLUMNS)
        .select(articleTags)
        .orderBy(SORT_KEYS[order.sort], (ob) => (order.direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
        .orderBy('a.id', order.direction),
    page,
  );
  return { rows: rows as TArticleRow[], total };
}

export async function findArticleBySlug(
  db: TDb,
  slug: string,
  choice: TContentChoice,
): Promise<TArticleRow | undefined> {
  const row = await visibleArticles(db, choice)
    .select(COLUMNS)
    .select(articleTags)
    .where('a.slug', '=', slug)
    .executeTakeFirst();
  return row as TArticleRow | undefined;
}
