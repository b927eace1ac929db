import { z } from 'zod';
import { idsWithPaths, zIdArray, zIdOrIds, zIntInRange, zLanguage, zSearch } from '../../lib/query.ts';
import { DEFAULT_RADIUS_KM, zNear, type TNear } from './vacancy-distance.ts';
import type { TReference, TReferencedTable } from '../taxonomies/taxonomies.repository.ts';
import type { TSearchPlan } from './vacancy-search.ts';
import { WORKPLACE_TYPES, type TWorkplaceType } from './vacancy.entity.ts';

/**
 * The id filters GET /vacancies and GET /vacancies/facets share, one row each: the query parameter, its key in the
 * parsed filters, the table its ids must exist in, how many ids it takes (`one-or-many`: one id or an array — both
 * forms at once are their union, which the query parser already delivers as one array; `array`: `name[]`), and what
 * of a vacancy it matches (a column of `vacancies`, or a link table). Everything else about a filter is derived
 * from this table: the zod fields, the raw and parsed types, the empty filter, the references a 422 reports, the
 * cache key, the SQL matcher.
 */
export const VACANCY_ID_FILTERS = [
  {
    field: 'location_id',
    key: 'locationIds',
    table: 'locations',
    form: 'one-or-many',
    match: { column: 'location_id' },
    description: 'One location id or an array (`location_id[]=1&location_id[]=2`)',
  },
  {
    field: 'department_id',
    key: 'departmentIds',
    table: 'departments',
    form: 'one-or-many',
    match: { column: 'department_id' },
    description: 'One department id or an array',
  },
  {
    field: 'company_location_id',
    key: 'companyLocationIds',
    table: 'company_locations',
    form: 'one-or-many',
    match: { column: 'company_location_id' },
    description: 'One company location id or an array (agency work sites)',
  },
  {
    field: 'job_types',
    key: 'jobTypeIds',
    table: 'job_types',
    form: 'array',
    match: { link: 'vacancy_job_types', column: 'job_type_id' },
    description: 'Job type ids (`job_types[]=1`); any of them matches',
  },
  {
    field: 'experience_levels',
    key: 'experienceLevelIds',
    table: 'experience_levels',
    form: 'array',
    match: { link: 'vacancy_experience_levels', column: 'experience_level_id' },
    description: 'Experience level ids; any of them matches',
  },
  {
    field: 'education_levels',
    key: 'educationLevelIds',
    table: 'education_levels',
    form: 'array',
    match: { link: 'vacancy_education_levels', column: 'education_level_id' },
    description: 'Education level ids; any of them matches',
  },
  {
    field: 'tags',
    key: 'tagIds',
    table: 'tags',
    form: 'array',
    // A vacancy carrying a tag below a named one matches too.
    match: { link: 'vacancy_tags', column: 'tag_id', withDescendants: true },
    description: 'Tag ids; a main tag also matches every tag below it',
  },
] as const satisfies ReadonlyArray<{
  field: string;
  key: string;
  table: TReferencedTable;
  form: 'one-or-many' | 'array';
  match: { column: string; link?: string; withDescendants?: boolean };
  description: string;
}>;

export type TVacancyIdFilter = (typeof VACANCY_ID_FILTERS)[number];
type TIdFilterField = TVacancyIdFilter['field'];
type TIdFilterKey = TVacancyIdFilter['key'];

type TIdFilterSchemas = {
  [F in TVacancyIdFilter as F['field']]: z.ZodOptional<F['form'] extends 'array' ? typeof zIdArray : typeof zIdOrIds>;
};

const idFilterFields = (form: TVacancyIdFilter['form']) =>
  Object.fromEntries(
    VACANCY_ID_FILTERS.filter((filter) => filter.form === form).map((filter) => [
      filter.field,
      (form === 'array' ? zIdArray : zIdOrIds).optional().describe(filter.description),
    ]),
  );

const ZLanguageFilter = zLanguage
  .optional()
  .describe('Only vacancies in this language (2 letters); also the language of labels');
const ZSearchFilter = zSearch
  .optional()
  .describe('Case-insensitive substring of the title or the summary (at most 255 characters)');
const ZQFilter = zSearch
  .optional()
  .describe(
    '(extension) Relevance search (at most 255 characters): every word must match the title, department, tags, job types, location or texts — ' +
      "case and accents folded, stemmed in the vacancy's language, with typos (5–8 letters: one edit, 9 or more: two), words of up to 4 letters and " +
      "the last word (from 3 letters) also as a prefix, and the tenant's synonyms. Stop words are ignored; only stop words is no filter.",
  );

/** `workplace_types[]=remote&workplace_types[]=hybrid` (or a lone value): any of them; errors on `workplace_types.N`. */
const ZWorkplaceTypesFilter = z
  .preprocess(
    (value) => (Array.isArray(value) ? value : value === undefined ? undefined : [value]),
    z
      .array(z.enum(WORKPLACE_TYPES, { error: 'The selected :attribute is invalid.' }), {
        error: 'The :attribute must be an array.',
      })
      .max(3, {
        error: 'The :attribute must not have more than 3 items.',
      }),
  )
  .optional()
  .describe('(extension) Workplace types (`workplace_types[]=remote`): on_site, hybrid, remote; any of them matches');

const ZNearFilter = zNear
  .optional()
  .describe(
    '(extension) `LAT,LNG`: only vacancies whose location has coordinates within radius_km (great-circle, haversine); items then carry distance_km',
  );
const ZRadiusFilter = zIntInRange(1, 500)
  .optional()
  .describe(`(extension) Kilometres around near (1–500, default ${DEFAULT_RADIUS_KM}); ignored without near`);

/** The filter parameters of the two operations (the id filters from the table, plus language, search and q). */
export const ZVacancyFilterFields = {
  language: ZLanguageFilter,
  ...idFilterFields('one-or-many'),
  search: ZSearchFilter,
  q: ZQFilter,
  ...idFilterFields('array'),
  workplace_types: ZWorkplaceTypesFilter,
  near: ZNearFilter,
  radius_km: ZRadiusFilter,
} as {
  language: typeof ZLanguageFilter;
  search: typeof ZSearchFilter;
  q: typeof ZQFilter;
  workplace_types: typeof ZWorkplaceTypesFilter;
  near: typeof ZNearFilter;
  radius_km: typeof ZRadiusFilter;
} & TIdFilterSchemas;

/** The filters whose ids must exist in the tenant. */
export const FILTER_ID_FIELDS: readonly TIdFilterField[] = VACANCY_ID_FILTERS.map((filter) => filter.field);

export type TVacancyFilterInput = z.output<z.ZodObject<typeof ZVacancyFilterFields>>;
type TRawFilters = Partial<TVacancyFilterInput>;

/** Filters as the repository applies them: every id filter a (possibly empty = no filter) list. */
export type TVacancyFilters = {
  language: string | undefined;
  search: string | undefined;
  q: string | undefined;
  workplaceTypes: TWorkplaceType[];
  near: (TNear & { radiusKm: number }) | undefined;
} & Record<TIdFilterKey, number[]> & {
    /** The locations within the radius of `near` and their distances (km), resolved before the vacancy queries. */
    nearLocations?: { ids: number[]; km: number[] };
    /** What `q` resolved to at the version of the answer (null: no filter), resolved like `matchingTagIds`. Unset: no `q`. */
    searchPlan?: TSearchPlan;
    /**
     * The tags a vacancy may carry to match `tagIds`: those and every tag below them, resolved before the
     * vacancy queries so the planner sees the actual ids (and uses the tag → vacancy index). Unset: resolve in SQL.
     */
    matchingTagIds?: number[];
  };

const asList = (value: number | readonly number[] | undefined): number[] =>
  value === undefined ? [] : Array.isArray(value) ? [...value] : [value as number];

export function toVacancyFilters(input: TRawFilters): TVacancyFilters {
  const ids = Object.fromEntries(
    VACANCY_ID_FILTERS.map((filter) => [filter.key, asList(input[filter.field])]),
  ) as Record<TIdFilterKey, number[]>;
  const near = input.near && { ...input.near, radiusKm: input.radius_km ?? DEFAULT_RADIUS_KM };
  return {
    language: input.language,
    search: input.search,
    q: input.q,
    workplaceTypes: [...new Set(input.workplace_types ?? [])],
    near,
    ...ids,
  };
}

/** No filter at all: every visible vacancy. */
export const NO_VACANCY_FILTERS: TVacancyFilters = Object.freeze(toVacancyFilters({}));

/** Every filter id of the request, each with the path it is reported on (`location_id`, `location_id.1`, `tags.0`). */
export function filterReferences(input: TRawFilters): TReference[] {
  return VACANCY_ID_FILTERS.flatMap((filter) =>
    idsWithPaths(filter.field, input[filter.field]).map((ref) => ({ table: filter.table, ...ref })),
  );
}

/** Equal filters in any spelling (order, duplicates, one id or a list) share one key. */
export function vacancyFiltersKey(filters: TVacancyFilters): string {
  const ids = (list: number[]) => [...new Set(list)].sort((a, b) => a - b);
  return JSON.stringify([
    filters.language ?? null,
    filters.search ?? null,
    filters.q ?? null,
    [...new Set(filters.workplaceTypes)].sort(),
    filters.near ? [filters.near.latitude, filters.near.longitude, filters.near.radiusKm] : null,
    ...VACANCY_ID_FILTERS.map((filter) => ids(filters[filter.key])),
  ]);
}
