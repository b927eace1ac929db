import { z } from 'zod';
import { idsWithPaths, zIdArray, zIdOrIds, zLanguage, zSearch } from '../../lib/query.ts';

/**
 * The filter parameters GET /vacancies and GET /vacancies/facets share. `location_id`, `department_id`
 * and `company_location_id` take one id or an array (both forms at once are their union, which the query
 * parser already delivers as one array); the taxonomy filters are `name[]` arrays.
 */
export const ZVacancyFilterFields = {
  language: zLanguage.optional().describe('Only vacancies in this language (2 letters); also the language of labels'),
  location_id: zIdOrIds.optional().describe('One location id or an array (`location_id[]=1&location_id[]=2`)'),
  department_id: zIdOrIds.optional().describe('One department id or an array'),
  company_location_id: zIdOrIds.optional().describe('One company location id or an array (agency work sites)'),
  search: zSearch.optional().describe('Case-insensitive substring of the title or the summary (at most 255 characters)'),
  job_types: zIdArray.optional().describe('Job type ids (`job_types[]=1`); any of them matches'),
  experience_levels: zIdArray.optional().describe('Experience level ids; any of them matches'),
  education_levels: zIdArray.optional().describe('Education level ids; any of them matches'),
  tags: zIdArray.optional().describe('Tag ids; a main tag also matches every tag below it'),
};

/** The filters whose ids must exist in the tenant. */
export const FILTER_ID_FIELDS = ['location_id', 'department_id', 'company_location_id', 'job_types', 'experience_levels', 'education_levels', 'tags'] as const;

type TRawFilters = {
  language?: string | undefined;
  location_id?: number | number[] | undefined;
  department_id?: number | number[] | undefined;
  company_location_id?: number | number[] | undefined;
  search?: string | undefined;
  job_types?: number[] | undefined;
  experience_levels?: number[] | undefined;
  education_levels?: number[] | undefined;
  tags?: number[] | undefined;
};

/** Filters as the repository applies them: every id filter a (possibly empty = no filter) list. */
export type TVacancyFilters = {
  language: string | undefined;
  search: string | undefined;
  locationIds: number[];
  departmentIds: number[];
  companyLocationIds: number[];
  jobTypeIds: number[];
  experienceLevelIds: number[];
  educationLevelIds: number[];
  tagIds: number[];
  /**
   * The tags a vacancy may carry to match `tagIds`: those and every tag below them, resolved before the
   * vacancy queries so the planner sees the actual ids (and uses the tag → vacancy index). Unset: resolve in SQL.
   */
  matchingTagIds?: number[];
};

/** The tables a filter id must exist in (within the key's tenant). */
export type TFilterTable = 'locations' | 'departments' | 'company_locations' | 'job_types' | 'experience_levels' | 'education_levels' | 'tags';

/** A filter id with the table it must exist in and the field path a 422 reports it on. */
export type TFilterReference = { table: TFilterTable; id: number; path: string };

const asList = (value: number | number[] | undefined): number[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export function toVacancyFilters(input: TRawFilters): TVacancyFilters {
  return {
    language: input.language,
    search: input.search,
    locationIds: asList(input.location_id),
    departmentIds: asList(input.department_id),
    companyLocationIds: asList(input.company_location_id),
    jobTypeIds: input.job_types ?? [],
    experienceLevelIds: input.experience_levels ?? [],
    educationLevelIds: input.education_levels ?? [],
    tagIds: input.tags ?? [],
  };
}

/** Every filter id of the request, each with the path it is reported on (`location_id`, `location_id.1`, `tags.0`). */
export function filterReferences(input: TRawFilters): TFilterReference[] {
  const arrayPaths = (field: string, ids: number[] | undefined) => (ids ?? []).map((id, index) => ({ id, path: `${field}.${index}` }));
  const groups: Array<[TFilterTable, Array<{ id: number; path: string }>]> = [
    ['locations', idsWithPaths('location_id', input.location_id)],
    ['departments', idsWithPaths('department_id', input.department_id)],
    ['company_locations', idsWithPaths('company_location_id', input.company_location_id)],
    ['job_types', arrayPaths('job_types', input.job_types)],
    ['experience_levels', arrayPaths('experience_levels', input.experience_levels)],
    ['education_levels', arrayPaths('education_levels', input.education_levels)],
    ['tags', arrayPaths('tags', input.tags)],
  ];
  return groups.flatMap(([table, refs]) => refs.map((ref) => ({ table, ...ref })));
}

export type TVacancyFilterInput = z.output<z.ZodObject<typeof ZVacancyFilterFields>>;
