import { z } from 'zod';
import { iso } from '../../lib/dates.ts';
import { countryName } from '../../lib/i18n.ts';
import type { TLocationRow } from './locations.repository.ts';

export const ZLocationAddress = z.object({
  address_line_1: z.string().nullable(),
  address_line_2: z.string().nullable(),
  address_line_3: z.string().nullable(),
  locality: z.string().nullable().describe('City'),
  administrative_area: z.string().nullable().describe('State or province'),
  postal_code: z.string().nullable(),
  country_code: z.string().nullable().describe('ISO 3166-1 alpha-2'),
  country_name: z.string().nullable().describe('Localized by `language`, else the tenant default language (CLDR)'),
});

export const ZLocation = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  address: ZLocationAddress,
  created_at: z.string().describe('ISO-8601 UTC'),
  coordinates: z
    .object({ latitude: z.number(), longitude: z.number() })
    .nullable()
    .optional()
    .describe('Only with include_coordinates; null when the location has none'),
  vacancy_count: z
    .number()
    .int()
    .optional()
    .describe('Only with include_vacancy_count: visible vacancies at this location'),
});
export type TLocation = z.infer<typeof ZLocation>;

export type TLocationDtoOptions = {
  /** Language of country names. */
  language: string;
  includeCoordinates: boolean;
  /** Visible vacancies per location id; only with include_vacancy_count. */
  vacancyCounts?: Map<number, number>;
};

function coordinatesOf(row: TLocationRow): TLocation['coordinates'] {
  if (row.latitude === null || row.longitude === null) return null;
  return { latitude: Number(row.latitude), longitude: Number(row.longitude) };
}

export function toLocationDto(row: TLocationRow, options: TLocationDtoOptions): TLocation {
  const dto: TLocation = {
    id: row.id,
    slug: row.slug,
    name: row.name,
    address: {
      address_line_1: row.address_line_1,
      address_line_2: row.address_line_2,
      address_line_3: row.address_line_3,
      locality: row.locality,
      administrative_area: row.administrative_area,
      postal_code: row.postal_code,
      country_code: row.country_code === null ? null : row.country_code.toUpperCase(),
      country_name: countryName(row.country_code, options.language),
    },
    created_at: iso(row.created_at),
  };
  if (options.includeCoordinates) dto.coordinates = coordinatesOf(row);
  if (options.vacancyCounts) dto.vacancy_count = options.vacancyCounts.get(row.id) ?? 0;
  return dto;
}
