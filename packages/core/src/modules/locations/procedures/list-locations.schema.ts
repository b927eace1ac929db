import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zPage } from '../../../lib/pagination.ts';
import { zCountryCode, zFlag, zLanguage, zPagination, zSearch, zSort, zSortDirection } from '../../../lib/query.ts';
import { ZLocation } from '../location.dto.ts';

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

export const ZListLocationsInput = z.object({
  ...zPagination,
  language: zLanguage.describe('Locale of country names (2 letters)').optional(),
  country_code: zCountryCode.describe('Only locations in this country (2 letters, case-insensitive)').optional(),
  search: zSearch.describe('Search in name, locality, address lines and postal code').optional(),
  sort: zSort(['name', 'locality', 'created_at'])
    .optional()
    .transform((v) => v ?? 'name')
    .describe('Sort field (default name); ties are broken by id'),
  sort_direction: zSortDirection
    .optional()
    .transform((v) => v ?? 'asc')
    .describe('asc or desc (default asc)'),
  include_coordinates: zFlag.describe('Add coordinates {latitude, longitude} (null when unknown)'),
  include_vacancy_count: zFlag.describe('Add vacancy_count: visible vacancies at the location'),
});
export type TListLocationsInput = z.infer<typeof ZListLocationsInput>;

export const ZListLocationsOutput = zPage(ZLocation);
export type TListLocationsOutput = z.infer<typeof ZListLocationsOutput>;
