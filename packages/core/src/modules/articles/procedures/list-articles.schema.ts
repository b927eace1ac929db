import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zPage } from '../../../lib/pagination.ts';
import {
  zFlag,
  zIdArray,
  zLanguage,
  zPagination,
  zQueryBool,
  zSearch,
  zSort,
  zSortDirection,
} from '../../../lib/query.ts';
import { ARTICLE_TYPES } from '../article.entity.ts';
import { ZArticle } from '../article.dto.ts';

export const listArticlesMeta = {
  openapi: {
    method: 'GET',
    path: '/articles',
    tags: ['Articles'],
    summary: 'List published articles',
    description:
      'Published, unexpired articles. With `language` only articles that have content in that language are listed, with that content; ' +
      "without it each article comes in the tenant's default language, else its alphabetically first language. `search` matches the returned " +
      'title and excerpt. `tags[]` includes sub-tags at any depth; a tag id of no tag of the tenant is 422 on `tags.N`.',
    protect: true,
  },
  scope: 'articles:read',
  expensiveRead: 'misses',
} satisfies TMeta;

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
