import { z } from 'zod';
import { iso, isoOrNull } from '../../lib/dates.ts';
import { pickTranslation } from '../../lib/i18n.ts';
import { ARTICLE_TYPES } from './article.entity.ts';
import { estimatedReadingTime } from './article-html.ts';
import { sanitizeTenantHtml } from '../../lib/tenant-html.ts';
import type { TArticleRow } from './articles.repository.ts';

export const ZArticleTag = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  parent_id: z.number().int().nullable(),
});

export const ZImageSet = z.object({
  default: z.string().nullable(),
  small: z.string().nullable(),
  large: z.string().nullable(),
});

export const ZArticle = z.object({
  id: z.number().int(),
  slug: z.string(),
  type: z.enum(ARTICLE_TYPES),
  title: z.string(),
  excerpt: z.string().nullable(),
  language: z.string().describe('Language of the returned content'),
  is_featured: z.boolean(),
  views_count: z.number().int(),
  estimated_reading_time: z.number().int().describe('Minutes: ceil(words of the body text / 200), at least 1'),
  published_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  tags: z.array(ZArticleTag),
  featured_image: ZImageSet.nullable().optional().describe('Only with include_media: absolute URLs per size'),
});
export type TArticle = z.infer<typeof ZArticle>;

export const ZArticleDetail = ZArticle.extend({
  body_html: z.string().describe('The body as sanitized HTML'),
  seo: z.object({ title: z.string().nullable(), description: z.string().nullable() }),
});
export type TArticleDetail = z.infer<typeof ZArticleDetail>;

export type TArticleDtoOptions = {
  /** Language of tag labels: the request's, else the tenant default. */
  language: string | undefined;
  defaultLanguage: string;
  includeMedia: boolean;
};

export function toArticleDto(row: TArticleRow, options: TArticleDtoOptions): TArticle {
  const dto: TArticle = {
    id: row.id,
    slug: row.slug,
    type: row.type as TArticle['type'],
    title: row.title,
    excerpt: row.excerpt,
    language: row.language,
    is_featured: row.is_featured,
    views_count: row.views_count,
    estimated_reading_time: estimatedReadingTime(row.body_html),
    published_at: isoOrNull(row.published_at),
    expires_at: isoOrNull(row.expires_at),
    created_at: iso(row.created_at),
    tags: row.tags.map((tag) => ({
      id: tag.id,
      name: pickTranslation(tag.name, options.language, options.defaultLanguage),
      parent_id: tag.parent_id,
    })),
  };
  if (options.includeMedia) {
    const image = row.featured_image;
    dto.featured_image = image
      ? { default: image.default ?? null, small: image.small ?? null, large: image.large ?? null }
      : null;
  }
  return dto;
}

export function toArticleDetailDto(row: TArticleRow, options: TArticleDtoOptions): TArticleDetail {
  return {
    ...toArticleDto(row, options),
    body_html: sanitizeTenantHtml(row.body_html),
    seo: { title: row.seo_title, description: row.seo_description },
  };
}
