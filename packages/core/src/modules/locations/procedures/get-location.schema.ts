import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zFlag, zLanguage } from '../../../lib/query.ts';
import { ZLocation } from '../location.dto.ts';

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

export const ZGetLocationInput = z.object({
  slug: z.string().describe('The location slug'),
  language: zLanguage.describe('Locale of the country name (2 letters)').optional(),
  include_coordinates: zFlag.describe('Add coordinates {latitude, longitude} (null when unknown)'),
  include_vacancy_count: zFlag.describe('Add vacancy_count: visible vacancies at the location'),
});
export type TGetLocationInput = z.infer<typeof ZGetLocationInput>;

export const ZGetLocationOutput = z.object({ data: ZLocation });
export type TGetLocationOutput = z.infer<typeof ZGetLocationOutput>;
