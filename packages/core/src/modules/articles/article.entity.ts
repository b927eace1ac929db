import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';
import { Tag } from '../taxonomies/taxonomy.entity.ts';
import type { TImageSet } from '../vacancies/vacancy.entity.ts';

export const ARTICLE_TYPES = ['news', 'company_update', 'event', 'blog_post'] as const;
export const ARTICLE_STATUSES = ['draft', 'published'] as const;

export const ArticleSchema = defineEntity({
  name: 'Article',
  tableName: 'articles',
  uniques: [{ properties: ['tenant', 'slug'] }],
  indexes: [{ properties: ['tenant', 'publishedAt', 'id'] }],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    slug: p.string().length(255),
    type: p.enum(ARTICLE_TYPES),
    status: p.enum(ARTICLE_STATUSES).default('draft'),
    isFeatured: p.boolean().default(false),
    viewsCount: p.integer().default(0),
    publishedAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    featuredImage: p.json<TImageSet>().nullable(),
    tags: () => p.manyToMany(Tag).pivotTable('article_tags').joinColumn('article_id').inverseJoinColumn('tag_id'),
  },
});
export class Article extends ArticleSchema.class {}
ArticleSchema.setClass(Article);

/** The content of an article in one language. */
export const ArticleTranslationSchema = defineEntity({
  name: 'ArticleTranslation',
  tableName: 'article_translations',
  uniques: [{ properties: ['article', 'language'] }],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    article: () => p.manyToOne(Article).deleteRule('cascade'),
    language: p.string().length(2),
    title: p.string().length(500),
    excerpt: p.text().nullable(),
    bodyHtml: p.text(),
    seoTitle: p.string().length(500).nullable(),
    seoDescription: p.text().nullable(),
  },
});
export class ArticleTranslation extends ArticleTranslationSchema.class {}
ArticleTranslationSchema.setClass(ArticleTranslation);
