import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import type { TDb } from '../../../db/kysely.ts';
import type { TFieldErrors } from '../../../lib/errors.ts';
import { AppError } from '../../../lib/errors.ts';
import { paginate } from '../../../lib/pagination.ts';
import { toArticleDto } from '../article.dto.ts';
import { findArticleTags, findArticlesPage, type TContentChoice } from '../articles.repository.ts';
import { expandTags } from '../../taxonomies/taxonomies.repository.ts';
import { unknownReferenceErrors } from '../../taxonomies/taxonomy-references.ts';
import { ZListArticlesInput, ZListArticlesOutput, listArticlesMeta } from './list-articles.schema.ts';

/** A 422 on `tags.N` for each tag id that is no tag of the tenant. */
async function unknownTagErrors(db: TDb, ids: number[]): Promise<{ errors: TFieldErrors; withDescendants: number[] }> {
  const tags = await expandTags(db, ids);
  const unknown = ids.flatMap((id, index) => (tags.found.has(id) ? [] : [{ path: `tags.${index}` }]));
  return { errors: unknownReferenceErrors(unknown), withDescendants: tags.withDescendants };
}

export const listArticlesProcedure = apiKeyProcedure()
  .meta(listArticlesMeta)
  // One 422 lists unknown tags with the query's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => {
      const tags = ZListArticlesInput.shape.tags.safeParse(((await getRawInput()) as Record<string, unknown> | null)?.tags);
      return tags.success && tags.data ? (await unknownTagErrors(ctx.db, tags.data)).errors : {};
    }),
  )
  .input(ZListArticlesInput)
  .output(ZListArticlesOutput)
  .query(async ({ ctx, input }) => {
    let tagIds: number[] | undefined;
    if (input.tags) {
      const tags = await unknownTagErrors(ctx.db, input.tags);
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
    const tags = await findArticleTags(ctx.db, rows.map((row) => row.id));
    const data = rows.map((row) =>
      toArticleDto(row, {
        language: input.language,
        defaultLanguage,
        includeMedia: input.include_media,
        tags: tags.filter((tag) => tag.article_id === row.id),
      }),
    );
    return paginate(data, total, input.page, input.per_page, ctx.url);
  });
