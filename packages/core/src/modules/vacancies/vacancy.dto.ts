import { z } from 'zod';
import { iso, isoOrNull } from '../../lib/dates.ts';
import { countryName, pickTranslation } from '../../lib/i18n.ts';
import type { TTranslations } from '../taxonomies/taxonomy.entity.ts';
import type { TVacancyFilters } from './vacancy-filters.ts';
import type { TLiveFields } from '../content/content.repository.ts';
import { ZJobPosting } from './vacancy-job-posting.ts';
import { WORKPLACE_TYPES, type TWorkplaceType } from './vacancy.entity.ts';
import type { TTaxonomyRef, TVacancyBaseDetailRow, TVacancyBaseRow, TVacancyReferences } from './vacancy.repository.ts';
import type { TFacetCountRow, TFacetGroup } from './vacancy-facets.repository.ts';

// ---- Response shapes ----

const ZImageSet = z
  .object({ default: z.string().nullable(), small: z.string().nullable(), large: z.string().nullable() })
  .describe('Absolute image URLs per size');

const ZNamed = z.object({ id: z.number().int(), name: z.string() });

export const ZVacancyListItem = z.object({
  id: z.number().int().describe('The vacancy publication id'),
  slug: z.string().describe('The publication slug'),
  title: z.string(),
  summary: z.string().nullable().describe('HTML'),
  language: z.string(),
  url: z.string().nullable().describe("The reported canonical URL, else the tenant's URL pattern filled in, else null"),
  accepts_applications: z.boolean(),
  views_count: z.number().int(),
  published_at: z.string(),
  ends_at: z.string().nullable(),
  created_at: z.string(),
  location: z
    .object({
      id: z.number().int(),
      slug: z.string(),
      name: z.string(),
      city: z.string().nullable(),
      country_code: z.string().nullable(),
    })
    .nullable(),
  department: ZNamed.nullable(),
  job_types: z.array(ZNamed),
  experience_levels: z.array(ZNamed),
  education_levels: z.array(ZNamed),
  tags: z.array(z.object({ id: z.number().int(), name: z.string(), parent_id: z.number().int().nullable() })),
  company_location: z
    .object({
      id: z.number().int(),
      name: z.string(),
      city: z.string().nullable(),
      country_code: z.string().nullable(),
      company_name: z.string().optional().describe('Only with include_company_name'),
    })
    .nullable(),
  workplace_type: z
    .enum(WORKPLACE_TYPES)
    .describe('(extension) Where the work is done: on_site (default), hybrid or remote'),
  remote_countries: z
    .array(z.string())
    .describe(
      "(extension) For remote vacancies: the countries (ISO 3166-1 alpha-2) it may be done from (empty: the tenant's default country; always empty when not remote)",
    ),
  header_image: ZImageSet.nullable().optional().describe('Only with include_media'),
  compensation: z
    .object({
      min: z.number().nullable(),
      max: z.number().nullable(),
      currency: z.string().nullable(),
      period: z.string().nullable(),
    })
    .nullable()
    .optional()
    .describe('Only with include_compensation'),
  distance_km: z
    .number()
    .optional()
    .describe("(extension) Only with near: the great-circle distance to the vacancy's location in km, one decimal"),
  highlights: z
    .object({
      title: z.string().describe('The title, HTML-escaped, matched words in <mark>'),
      summary: z
        .string()
        .describe(
          'The summary as plain text (at most 200 characters around the first match), HTML-escaped, matched words in <mark>',
        ),
    })
    .optional()
    .describe('(extension) Only with include_highlights'),
});
export type TVacancyListItem = z.infer<typeof ZVacancyListItem>;

export const ZVacancyDetail = ZVacancyListItem.extend({
  description: z.string().nullable().describe('HTML'),
  requirements: z.string().nullable().describe('HTML'),
  offer: z.string().nullable().describe('HTML'),
  structured_data: ZJobPosting.optional().describe(
    'Only with include_structured_data: the vacancy as a schema.org JobPosting (JSON-LD)',
  ),
});
export type TVacancyDetail = z.infer<typeof ZVacancyDetail>;

const ZFacetEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  count: z.number().int(),
  selected: z.boolean(),
});

export const ZVacancyFacets = z
  .object({
    locations: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        city: z.string().nullable(),
        country_code: z.string().nullable(),
        country_name: z.string().nullable(),
        count: z.number().int(),
        selected: z.boolean(),
      }),
    ),
    departments: z.array(ZFacetEntry),
    job_types: z.array(ZFacetEntry),
    experience_levels: z.array(ZFacetEntry),
    education_levels: z.array(ZFacetEntry),
    tags: z.array(ZFacetEntry.extend({ parent_id: z.number().int().nullable() })),
    languages: z.array(z.object({ code: z.string(), count: z.number().int(), selected: z.boolean() })),
    workplace_types: z
      .array(
        z.object({
          id: z.enum(WORKPLACE_TYPES),
          name: z.string().describe('Localized'),
          count: z.number().int(),
          selected: z.boolean(),
        }),
      )
      .describe('(extension) Per workplace type (on_site, hybrid, remote)'),
  })
  .describe('Counts of the matching vacancies per value (only counts ≥ 1; count desc, then name or code, then id)');
export type TVacancyFacets = z.infer<typeof ZVacancyFacets>;

// ---- Mappers ----

export type TVacancyView = {
  /** The request's `language`, if any (labels fall back to the tenant default). */
  language: string | undefined;
  defaultLanguage: string;
  urlPattern: string | null;
  includeMedia: boolean;
  includeCompensation: boolean;
  includeCompanyName: boolean;
};

/** A label from stored names; a plain string is a name in one language. */
function label(names: TTranslations | string | null, view: Pick<TVacancyView, 'language' | 'defaultLanguage'>): string {
  if (typeof names === 'string') return names;
  return pickTranslation(names, view.language, view.defaultLanguage) ?? '';
}

function vacancyUrl(
  row: Pick<TVacancyBaseRow, 'canonical_url' | 'slug' | 'id'>,
  urlPattern: string | null,
): string | null {
  if (row.canonical_url) return row.canonical_url;
  if (!urlPattern) return null;
  return urlPattern.replaceAll('{slug}', encodeURIComponent(row.slug)).replaceAll('{id}', String(row.id));
}

const named = (view: TVacancyView) => (ref: TTaxonomyRef) => ({ id: ref.id, name: label(ref.name, view) });

/** The entries of `ids` that `refs` knows, in the order of `ids`. */
function known<T>(ids: number[], refs: Map<number, T>): T[] {
  return ids.flatMap((id) => {
    const ref = refs.get(id);
    return ref === undefined ? [] : [ref];
  });
}

/** Whether `refs` has every id the rows refer to (else they were read after a change `refs` predates). */
export function referencesCover(rows: TVacancyBaseRow[], refs: TVacancyReferences): boolean {
  return rows.every(
    (row) =>
      (row.location_id === null || refs.locations.has(row.location_id)) &&
      (row.department_id === null || refs.departments.has(row.department_id)) &&
      (row.company_location_id === null || refs.companyLocations.has(row.company_location_id)) &&
      row.job_type_ids.every((id) => refs.job_types.has(id)) &&
      row.experience_level_ids.every((id) => refs.experience_levels.has(id)) &&
      row.education_level_ids.every((id) => refs.education_levels.has(id)) &&
      row.tag_ids.every((id) => refs.tags.has(id)),
  );
}

export function toVacancyListItem(
  row: TVacancyBaseRow,
  refs: TVacancyReferences,
  view: TVacancyView,
): TVacancyListItem {
  const location = row.location_id === null ? undefined : refs.locations.get(row.location_id);
  const department = row.department_id === null ? undefined : refs.departments.get(row.department_id);
  const companyLocation =
    row.company_location_id === null ? undefined : refs.companyLocations.get(row.company_location_id);
  const item: TVacancyListItem = {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    language: row.language,
    url: vacancyUrl(row, view.urlPattern),
    accepts_applications: row.accepts_applications,
    views_count: row.views_count,
    // Visible vacancies always have a publication time (the query requires published_at <= now).
    published_at: iso(row.published_at ?? row.created_at),
    ends_at: isoOrNull(row.ends_at),
    created_at: iso(row.created_at),
    location: location
      ? {
          id: location.id,
          slug: location.slug,
          name: location.name,
          city: location.city,
          country_code: location.country_code,
        }
      : null,
    department: department ? { id: department.id, name: label(department.name, view) } : null,
    job_types: known(row.job_type_ids, refs.job_types).map(named(view)),
    experience_levels: known(row.experience_level_ids, refs.experience_levels).map(named(view)),
    education_levels: known(row.education_level_ids, refs.education_levels).map(named(view)),
    tags: known(row.tag_ids, refs.tags).map((tag) => ({
      id: tag.id,
      name: label(tag.name, view),
      parent_id: tag.parent_id,
    })),
    company_location: companyLocation
      ? {
          id: companyLocation.id,
          name: companyLocation.name,
          city: companyLocation.city,
          country_code: companyLocation.country_code,
          ...(view.includeCompanyName ? { company_name: companyLocation.company_name ?? '' } : {}),
        }
      : null,
    workplace_type: row.workplace_type,
    remote_countries: row.workplace_type === 'remote' ? row.remote_countries : [],
  };
  if (view.includeMedia) {
    const image = row.header_image;
    item.header_image = image
      ? { default: image.default ?? null, small: image.small ?? null, large: image.large ?? null }
      : null;
  }
  if (view.includeCompensation) {
    const hasCompensation =
      row.compensation_min !== null ||
      row.compensation_max !== null ||
      row.compensation_currency !== null ||
      row.compensation_period !== null;
    item.compensation = hasCompensation
      ? {
          min: row.compensation_min,
          max: row.compensation_max,
          currency: row.compensation_currency,
          period: row.compensation_period,
        }
      : null;
  }
  return item;
}

/** A vacancy's `url` with its live canonical URL (read fresh with every request), else as it was computed. */
export function liveUrl(
  item: Pick<TVacancyListItem, 'id' | 'slug' | 'url'>,
  fields: TLiveFields | undefined,
  urlPattern: string | null,
): string | null {
  return fields
    ? vacancyUrl({ canonical_url: fields.canonical_url ?? null, slug: item.slug, id: item.id }, urlPattern)
    : item.url;
}

/**
 * Lays a vacancy's live fields (read fresh with every request: views, reported canonical URL) over an answer
 * computed earlier; `url` follows the canonical URL, else the tenant's pattern.
 */
export function withLiveFields<T extends TVacancyListItem>(
  items: readonly T[],
  live: Map<number, TLiveFields> | undefined,
  urlPattern: string | null,
): T[] {
  if (!live) return items as T[];
  return items.map((item) => {
    const fields = live.get(item.id);
    if (!fields) return item;
    const url = liveUrl(item, fields, urlPattern);
    return fields.views_count === item.views_count && url === item.url
      ? item
      : { ...item, views_count: fields.views_count, url };
  });
}

export function toVacancyDetail(
  row: TVacancyBaseDetailRow,
  refs: TVacancyReferences,
  view: TVacancyView,
): TVacancyDetail {
  return {
    ...toVacancyListItem(row, refs, view),
    description: row.description,
    requirements: row.requirements,
    offer: row.offer,
  };
}

/** Names of the workplace types per language (English for any other). */
const WORKPLACE_NAMES: Record<string, Record<TWorkplaceType, string>> = {
  en: { on_site: 'On-site', hybrid: 'Hybrid', remote: 'Remote' },
  nl: { on_site: 'Op locatie', hybrid: 'Hybride', remote: 'Op afstand' },
  de: { on_site: 'Vor Ort', hybrid: 'Hybrid', remote: 'Remote' },
  fr: { on_site: 'Sur site', hybrid: 'Hybride', remote: 'Télétravail' },
  es: { on_site: 'Presencial', hybrid: 'Híbrido', remote: 'Remoto' },
  it: { on_site: 'In sede', hybrid: 'Ibrido', remote: 'Da remoto' },
};

export function workplaceName(type: TWorkplaceType, language: string): string {
  return (WORKPLACE_NAMES[language] ?? WORKPLACE_NAMES.en!)[type];
}

/** Facet order: count desc, then lower-cased name (or code) asc, then id asc. */
function byFacetOrder<T extends { count: number; id?: number }>(sortKey: (entry: T) => string) {
  return (a: T, b: T): number => {
    if (a.count !== b.count) return b.count - a.count;
    const ka = sortKey(a);
    const kb = sortKey(b);
    if (ka !== kb) return ka < kb ? -1 : 1;
    return (a.id ?? 0) - (b.id ?? 0);
  };
}

/** The facet groups from the repository's count rows, labelled in the request's language. */
export function toVacancyFacets(
  rows: TFacetCountRow[],
  filters: TVacancyFilters,
  view: Pick<TVacancyView, 'language' | 'defaultLanguage'>,
): TVacancyFacets {
  const of = (group: TFacetGroup) => rows.filter((row) => row.facet === group && row.count > 0);
  const byName = byFacetOrder<{ count: number; id?: number; name: string }>((entry) => entry.name.toLowerCase());
  const taxonomy = (group: TFacetGroup, selectedIds: number[]) =>
    of(group)
      .map((row) => ({
        id: row.id ?? 0,
        name: label(row.name, view),
        count: row.count,
        selected: selectedIds.includes(row.id ?? 0),
      }))
      .sort(byName);
  const countryLanguage = view.language ?? view.defaultLanguage;
  return {
    locations: of('locations')
      .map((row) => ({
        id: row.id ?? 0,
        name: label(row.name, view),
        city: row.city,
        country_code: row.country_code,
        country_name: countryName(row.country_code, countryLanguage),
        count: row.count,
        selected: filters.locationIds.includes(row.id ?? 0),
      }))
      .sort(byName),
    departments: taxonomy('departments', filters.departmentIds),
    job_types: taxonomy('job_types', filters.jobTypeIds),
    experience_levels: taxonomy('experience_levels', filters.experienceLevelIds),
    education_levels: taxonomy('education_levels', filters.educationLevelIds),
    tags: of('tags')
      .map((row) => ({
        id: row.id ?? 0,
        name: label(row.name, view),
        parent_id: row.parent_id,
        count: row.count,
        selected: filters.tagIds.includes(row.id ?? 0),
      }))
      .sort(byName),
    languages: of('languages')
      .map((row) => ({ code: row.code ?? '', count: row.count, selected: filters.language === row.code }))
      .sort(byFacetOrder((entry) => entry.code)),
    workplace_types: of('workplace_types')
      .map((row) => {
        const id = row.code as TWorkplaceType;
        return {
          id,
          name: workplaceName(id, countryLanguage),
          count: row.count,
          selected: filters.workplaceTypes.includes(id),
        };
      })
      .sort(
        (a, b) =>
          b.count - a.count ||
          (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0),
      ),
  };
}

/** The number of matching vacancies, from the `total` row of the facet counts. */
export function facetTotal(rows: TFacetCountRow[]): number {
  return rows.find((row) => row.facet === 'total')?.count ?? 0;
}
