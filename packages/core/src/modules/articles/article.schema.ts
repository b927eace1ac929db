import { z } from 'zod';
import {
  zFlag,
  zLanguage,
  zIdArray,
  zPagination,
  zQueryBool,
  zSearch,
  zSort,
  zSortDirection,
} from '../../lib/query.ts';
import { ZArticleDetail, ZArticle } from './article.dto.ts';
import { zPage } from '../../lib/pagination.ts';
import { ARTICLE_TYPES } from './article.entity.ts';

/** What GET /articles and GET /articles/{slug} take and answer (their procedures' input and output). */

export const ZGetArticleInput = z.object({
  slug: z.string().describe('The article slug'),
  language: zLanguage.describe('Preferred content language (2 letters)').optional(),
  include_media: zFlag.describe('Add featured_image {default, small, large} (or null)'),
});
export type TGetArticleInput = z.infer<typeof ZGetArticleInput>;

export const ZGetArticleOutput = z.object({ data: ZArticleDetail });
export type TGetArticleOutput = z.infer<typeof ZGetArticleOutput>;

export const ZListArticlesInput = z.object({
  ...zPagination,
  language: zLanguage
    .describe('Only articles with content in this language (2 letters), returning that content')
    .optional(),
  type: z
    .enum(ARTICLE_TYPES, { error: 'The selected :attribute is invalid.' })
    .describe('news, company_update, event or blog_post')
    .optional(),
  search: zSearch.describe('Search in the returned title and excerpt').optional(),
  tags: zIdArray.describe('Tag ids (tags[]=1&tags[]=2); a main tag includes its sub-tags').optional(),
  is_featured: zQueryBool.describe('true: only featured; false: only not featured; absent: no filter').optional(),
  sort: zSort(['published_at', 'title', 'created_at', 'views_count'])
    .optional()
    .transform((v) => v ?? 'published_at')
    .describe('Sort field (default published_at); ties are broken by id'),
  sort_direction: zSortDirection
    .optional()
    .transform((v) => v ?? 'desc')
    .describe('asc or desc (default desc)'),
  include_media: zFlag.describe('Add featured_image {default, small, large} (or null)'),
});
export type TListArticlesInput = z.infer<typeof ZListArticlesInput>;

export const ZListArticlesOutput = zPage(ZArticle);
export type TListArticlesOutput = z.infer<typeof ZListArticlesOutput>;
