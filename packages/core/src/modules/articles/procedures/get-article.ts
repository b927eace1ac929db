import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { servedOutput } from '../../content/serialized-answer.ts';
import { getArticle } from '../articles.service.ts';
import { getArticleMeta } from './get-article.schema.ts';
import { ZGetArticleInput, ZGetArticleOutput } from '../article.schema.ts';

export const getArticleProcedure = apiKeyProcedure()
  .meta(getArticleMeta)
  .input(ZGetArticleInput)
  .output(servedOutput(ZGetArticleOutput))
  .query(({ ctx, input }) => getArticle(ctx, input));
