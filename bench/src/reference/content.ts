import type { Pool } from 'pg';
import { AppError, paginate, toLocationDto, toArticleDto } from '@careers/core/bench';
import type { TCaller } from './auth.ts';
import { flagParam, intParam, languageParam, type TAnswer, type TRequest } from './http.ts';
import { onlyParams } from './sql.ts';

/** GET /locations (name order) with the visible vacancies per location of the page, in one query. */
export async function listLocations(pool: Pool, caller: TCaller, request: TRequest): Promise<TAnswer> {
  const { query } = request;
  onlyParams(query, ['page', 'per_page', 'language', 'include_vacancy_count']);
  const page = intParam(query, 'page', 1, 1_000_000);
  const perPage = intParam(query, 'per_page', 20, 100);
  const language = languageParam(query) ?? caller.defaultLanguage;
  const withCounts = flagParam(query, 'include_vacancy_count');
  const { rows } = await pool.query(
    `with page as (
       select l.id, l.slug, l.name, l.address_line_1, l.address_line_2, l.address_line_3, l.locality, l.administrative_area, l.postal_code,
         l.country_code, l.latitude, l.longitude, l.created_at, (count(*) over ())::int as total
       from locations l where l.tenant_id = $1 order by lower(l.name) asc nulls last, l.id asc limit $2 offset $3)
     select page.*, ${
       withCounts
         ? `(select count(*)::int from vacancies v where v.tenant_id = $1 and v.location_id = page.id
       and v.status = 'published' and 'api' = any(v.channels) and v.published_at <= now() and (v.ends_at is null or v.ends_at > now()))`
         : 'null'
     } as vacancy_count
     from page order by lower(page.name) asc nulls last, page.id asc`,
    [caller.tenantId, perPage, (page - 1) * perPage],
  );
  // A page past the end has no row to carry the total: count apart, as the product does.
  const total =
    rows[0]?.total ??
    (await pool.query('select count(*)::int as total from locations where tenant_id = $1', [caller.tenantId])).rows[0]
      .total;
  const vacancyCounts = withCounts
    ? new Map<number, number>(rows.map((row) => [row.id, row.vacancy_count]))
    : undefined;
  const items = rows.map((row) => toLocationDto(row, { language, includeCoordinates: false, vacancyCounts }));
  return { status: 200, body: paginate(items, total, page, perPage, request.url) };
}

/** GET /articles?language=xx (published_at desc): the page with its content and tags, in one query. */
export async function listArticles(pool: Pool, caller: TCaller, request: TRequest): Promise<TAnswer> {
  const { query } = request;
  onlyParams(query, ['page', 'per_page', 'language']);
  const page = intParam(query, 'page', 1, 1_000_000);
  const perPage = intParam(query, 'per_page', 20, 100);
  const language = languageParam(query);
  // Without a language each article comes in the tenant's default language, else its alphabetically first one.
  const content = language ? 't.language = $4' : 'true order by t.language = $4 desc, t.language asc limit 1';
  const { rows } = await pool.query(
    `select a.id, a.slug, a.type, a.is_featured, a.views_count, a.published_at, a.expires_at, a.created_at, a.featured_image,
       c.language, c.title, c.excerpt, c.body_html, (count(*) over ())::int as total,
       (select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'parent_id', g.parent_id) order by g.id), '[]')
        from article_tags x join tags g on g.id = x.tag_id and g.tenant_id = $1 where x.article_id = a.id) as tags
     from articles a
     join lateral (select t.language, t.title, t.excerpt, t.body_html from article_translations t where t.article_id = a.id and t.tenant_id = $1 and ${content}) c on true
     where a.tenant_id = $1 and a.status = 'published' and a.published_at <= now() and (a.expires_at is null or a.expires_at > now())
     order by a.published_at desc nulls last, a.id desc limit $2 offset $3`,
    [caller.tenantId, perPage, (page - 1) * perPage, language ?? caller.defaultLanguage],
  );
  if (rows.length === 0 && page > 1)
    throw new AppError('INTERNAL', { detail: 'the reference does not count past the last page of articles' });
  const total = rows[0]?.total ?? 0;
  const items = rows.map((row) =>
    toArticleDto(row, { language, defaultLanguage: caller.defaultLanguage, includeMedia: false }),
  );
  return { status: 200, body: paginate(items, total, page, perPage, request.url) };
}
