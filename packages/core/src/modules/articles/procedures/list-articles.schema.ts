import type { TMeta } from '../../operation-meta.ts';

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
