import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { servedOutput } from '../../content/serialized-answer.ts';
import { listArticles, unknownTagErrors } from '../articles.service.ts';
import { listArticlesMeta } from './list-articles.schema.ts';
import { ZListArticlesInput, ZListArticlesOutput } from '../article.schema.ts';

export const listArticlesProcedure = apiKeyProcedure()
  .meta(listArticlesMeta)
  // One 422 lists unknown tags with the query's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => {
      const tags = ZListArticlesInput.shape.tags.safeParse(
        ((await getRawInput()) as Record<string, unknown> | null)?.tags,
      );
      return tags.success && tags.data ? (await unknownTagErrors(ctx, { ids: tags.data })).errors : {};
    }),
  )
  .input(ZListArticlesInput)
  .output(servedOutput(ZListArticlesOutput))
  .query(({ ctx, input }) => listArticles(ctx, input));
