import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { toArticleDetailDto } from '../article.dto.ts';
import { findArticleBySlug, findArticleTags } from '../articles.repository.ts';
import { ZGetArticleInput, ZGetArticleOutput, getArticleMeta } from './get-article.schema.ts';
import { isStorableText } from '../../../lib/validation.ts';

export const getArticleProcedure = apiKeyProcedure()
  .meta(getArticleMeta)
  .input(ZGetArticleInput)
  .output(ZGetArticleOutput)
  .query(async ({ ctx, input }) => {
    const defaultLanguage = ctx.tenant.defaultLanguage;
    // A language the article has no content in falls back to its default content.
    const prefer = input.language ? [input.language, defaultLanguage] : [defaultLanguage];
    // PostgreSQL text never holds NUL (it refuses it as a parameter), so such a slug names nothing.
    const row = isStorableText(input.slug) ? await findArticleBySlug(ctx.db, input.slug, { prefer }) : undefined;
    if (!row) throw new AppError('NOT_FOUND');
    const tags = await findArticleTags(ctx.db, [row.id]);
    ctx.services.views.record('articles', row.id);
    return { data: toArticleDetailDto(row, { language: input.language, defaultLanguage, includeMedia: input.include_media, tags }) };
  });
