import type { TMeta } from '../../operation-meta.ts';

export const getLocationMeta = {
  openapi: {
    method: 'GET',
    path: '/locations/{slug}',
    tags: ['Locations'],
    summary: 'Get one office location',
    description:
      'The complete location by its slug. Country names are localized by `language` (else the tenant default language).',
    protect: true,
  },
  scope: 'locations:read',
  expensiveRead: 'misses',
  errors: ['NOT_FOUND'],
} satisfies TMeta;
