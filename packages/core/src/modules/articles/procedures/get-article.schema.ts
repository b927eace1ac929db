import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zFlag, zLanguage } from '../../../lib/query.ts';
import { ZArticleDetail } from '../article.dto.ts';

export const getArticleMeta = {
  openapi: {
    method: 'GET',
    path: '/articles/{slug}',
    tags: ['Articles'],
    summary: 'Get one published article',
    description:
      'The complete article with its sanitized body HTML and SEO metadata, in `language` when it has content in it, else in the ' +
      "tenant's default language, else its alphabetically first language (`language` in the answer tells which). Counts a view.",
    protect: true,
  },
  scope: 'articles:read',
  expensiveRead: 'misses',
  errors: ['NOT_FOUND'],
} satisfies TMeta;

export const ZGetArticleInput = z.object({
  slug: z.string().describe('The article slug'),
  language: zLanguage.describe('Preferred content language (2 letters)').optional(),
  include_media: zFlag.describe('Add featured_image {default, small, large} (or null)'),
});
export type TGetArticleInput = z.infer<typeof ZGetArticleInput>;

export const ZGetArticleOutput = z.object({ data: ZArticleDetail });
export type TGetArticleOutput = z.infer<typeof ZGetArticleOutput>;
