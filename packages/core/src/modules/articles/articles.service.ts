import type { TDb } from '../../db/kysely.ts';
import type { TServiceContext } from '../service-context.ts';
import { AppError, type TFieldErrors } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { isStorableText } from '../../lib/validation.ts';
import type { ViewCounter } from '../content/view-counter.ts';
import type { TTenantContext } from '../api-keys/api-key.verifier.ts';
import { contentKey, type ContentCache, type TContentReader } from '../content/content-cache.ts';
import { withLiveViews } from '../content/content.repository.ts';
import { SerializedForm, servedAnswer, type TAnswerTransport } from '../content/serialized-answer.ts';
import { toArticleDetailDto, toArticleDto } from './article.dto.ts';
import { findArticleBySlug, findArticlesPage, type TContentChoice } from './articles.repository.ts';
import { expandTags } from '../taxonomies/taxonomies.repository.ts';
import { unknownReferenceErrors } from '../taxonomies/taxonomy-references.ts';
import { ZGetArticleOutput, type TGetArticleInput, type TGetArticleOutput } from './article.schema.ts';
import { ZListArticlesOutput, type TListArticlesInput, type TListArticlesOutput } from './article.schema.ts';

/** What the article reads need from a request: its tenant-scoped database, tenant, key, response and URL. */
export type TArticleReadContext = TContentReader &
  TAnswerTransport & {
    db: TDb;
    tenant: TTenantContext;
    url: URL;
    services: { content: ContentCache; views: Pick<ViewCounter, 'record'> };
  };

/** A 422 on `tags.N` for each tag id that is no tag of the tenant. */
export async function unknownTagErrors(
  ctx: TServiceContext,
  input: { ids: number[] },
): Promise<{ errors: TFieldErrors; withDescendants: number[] }> {
  const { ids } = input;
  const tags = await expandTags(ctx.db, ids);
  const unknown = ids.flatMap((id, index) => (tags.found.has(id) ? [] : [{ path: `tags.${index}` }]));
  return { errors: unknownReferenceErrors(unknown), withDescendants: tags.withDescendants };
}

export async function listArticles(ctx: TArticleReadContext, input: TListArticlesInput): Promise<TListArticlesOutput> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('articles.list', ctx.tenant, input),
    viewCounts: 'articles',
    // An order by view count changes without a content change.
    uncached: input.sort === 'views_count',
    compute: async () => {
      let tagIds: number[] | undefined;
      if (input.tags) {
        const tags = await unknownTagErrors(ctx, { ids: input.tags });
        if (Object.keys(tags.errors).length > 0) throw AppError.validation(tags.errors);
        tagIds = tags.withDescendants;
      }
      const defaultLanguage = ctx.tenant.defaultLanguage;
      const choice: TContentChoice = input.language ? { only: input.language } : { prefer: [defaultLanguage] };
      const { rows, total } = await findArticlesPage(
        ctx.db,
        choice,
        { type: input.type, isFeatured: input.is_featured, search: input.search, tagIds },
        { sort: input.sort, direction: input.sort_direction },
        { page: input.page, perPage: input.per_page },
      );
      const items = rows.map((row) =>
        toArticleDto(row, { language: input.language, defaultLanguage, includeMedia: input.include_media }),
      );
      return { value: { items, total, form: new SerializedForm() }, viewIds: items.map((item) => item.id) };
    },
  });
  const { items, total, form } = answer.value;
  // Pagination links repeat the request's URL as it was spelled.
  return servedAnswer(ctx, { form, live: answer.live }, ZListArticlesOutput, ctx.url.href, () =>
    paginate(withLiveViews(items, answer.live), total, input.page, input.per_page, ctx.url),
  );
}

/** A visible article by its slug (404 otherwise), in the preferred language; counts a view, batched. */
export async function getArticle(ctx: TArticleReadContext, input: TGetArticleInput): Promise<TGetArticleOutput> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('articles.detail', ctx.tenant, input),
    viewCounts: 'articles',
    compute: async () => {
      const defaultLanguage = ctx.tenant.defaultLanguage;
      // A language the article has no content in falls back to its default content.
      const prefer = input.language ? [input.language, defaultLanguage] : [defaultLanguage];
      // PostgreSQL text never holds NUL (it refuses it as a parameter), so such a slug names nothing.
      const row = isStorableText(input.slug) ? await findArticleBySlug(ctx.db, input.slug, { prefer }) : undefined;
      if (!row) return { value: null };
      const article = toArticleDetailDto(row, {
        language: input.language,
        defaultLanguage,
        includeMedia: input.include_media,
      });
      return { value: { article, form: new SerializedForm() }, viewIds: [row.id] };
    },
  });
  if (!answer.value) throw new AppError('NOT_FOUND');
  const { article, form } = answer.value;
  ctx.services.views.record('articles', article.id);
  return servedAnswer(ctx, { form, live: answer.live }, ZGetArticleOutput, '', () => ({
    data: withLiveViews([article], answer.live)[0]!,
  }));
}
