import type { TMeta } from '../../operation-meta.ts';

export const listLocationsMeta = {
  openapi: {
    method: 'GET',
    path: '/locations',
    tags: ['Locations'],
    summary: 'List office locations',
    description:
      "The tenant's office locations with their addresses. Country names are localized by `language` (else the tenant default language). " +
      '`search` matches name, locality, address lines and postal code (case-insensitive substring). Text sorts are case-insensitive, nulls last, ties by id.',
    protect: true,
  },
  scope: 'locations:read',
  expensiveRead: 'misses',
} satisfies TMeta;
