import { z } from 'zod';
import { zFlag, zLanguage, zCountryCode, zPagination, zSearch, zSort, zSortDirection } from '../../lib/query.ts';
import { ZLocation } from './location.dto.ts';
import { zPage } from '../../lib/pagination.ts';

/** What GET /locations and GET /locations/{id} take and answer (their procedures' input and output). */

export const ZGetLocationInput = z.object({
  slug: z.string().describe('The location slug'),
  language: zLanguage.describe('Locale of the country name (2 letters)').optional(),
  include_coordinates: zFlag.describe('Add coordinates {latitude, longitude} (null when unknown)'),
  include_vacancy_count: zFlag.describe('Add vacancy_count: visible vacancies at the location'),
});
export type TGetLocationInput = z.infer<typeof ZGetLocationInput>;

export const ZGetLocationOutput = z.object({ data: ZLocation });
export type TGetLocationOutput = z.infer<typeof ZGetLocationOutput>;

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
