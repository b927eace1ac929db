import { router } from '../../trpc/init.ts';
import { getArticleProcedure } from './procedures/get-article.ts';
import { listArticlesProcedure } from './procedures/list-articles.ts';

export const articlesRouter = router({
  list: listArticlesProcedure,
  get: getArticleProcedure,
});
