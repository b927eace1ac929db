import type { TMeta } from '../../operation-meta.ts';

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
