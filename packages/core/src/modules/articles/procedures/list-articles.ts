import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { paginate } from '../../../lib/pagination.ts';
import { toArticleDto } from '../article.dto.ts';
import { expandTags, findArticleTags, findArticlesPage, type TContentChoice } from '../articles.repository.ts';
import { ZListArticlesInput, ZListArticlesOutput, listArticlesMeta } from './list-articles.schema.ts';

export const listArticlesProcedure = apiKeyProcedure()
  .meta(listArticlesMeta)
  .input(ZListArticlesInput)
  .output(ZListArticlesOutput)
  .query(async ({ ctx, input }) => {
    let tagIds: number[] | undefined;
    if (input.tags) {
      const tags = await expandTags(ctx.db, input.tags);
      const unknown = input.tags.flatMap((id, index) => (tags.found.has(id) ? [] : [`tags.${index}`]));
      if (unknown.length > 0) throw AppError.validation(Object.fromEntries(unknown.map((path) => [path, [`The selected ${path} is invalid.`]])));
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
