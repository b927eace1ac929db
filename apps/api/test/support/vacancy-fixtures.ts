/**
 * Tenant documents for the vacancy read tests, and a plain in-memory model of what GET /vacancies and
 * GET /vacancies/facets must answer for them (visibility, filters, sorting, facet counts).
 */

export const DAY = 24 * 60 * 60 * 1000;

type TNames = Record<string, string>;

export type TVacancyDoc = {
  id: number;
  slug: string;
  title: string;
  summary?: string | null;
  description?: string | null;
  requirements?: string | null;
  offer?: string | null;
  language: string;
  status: 'draft' | 'published' | 'unpublished';
  channels: string[];
  accepts_applications?: boolean;
  published_at: string | null;
  created_at: string;
  ends_at?: string | null;
  views_count?: number;
  location_id?: number | null;
  department_id?: number | null;
  company_location_id?: number | null;
  job_type_ids?: number[];
  experience_level_ids?: number[];
  education_level_ids?: number[];
  tag_ids?: number[];
  compensation?: { min: number | null; max: number | null; currency: string; period: string } | null;
  header_image?: { default: string | null; small: string | null; large: string | null } | null;
  canonical_url?: string | null;
  workplace_type?: 'on_site' | 'hybrid' | 'remote';
  remote_countries?: string[];
};

export type TTenantDoc = {
  slug: string;
  name: string;
  default_language: string;
  career_site?: { domain: string | null; url_pattern: string | null } | null;
  api_keys: Array<{ id: number; name: string; key: string; scopes: string[] }>;
  locations: Array<{
    id: number;
    slug: string;
    name: string;
    locality?: string | null;
    country_code?: string | null;
    created_at?: string;
  }>;
  companies: Array<{
    id: number;
    name: string;
    locations: Array<{ id: number; name: string; city: string | null; country_code: string | null }>;
  }>;
  departments: Array<{ id: number; name: TNames | string }>;
  job_types: Array<{ id: number; name: TNames }>;
  experience_levels: Array<{ id: number; name: TNames }>;
  education_levels: Array<{ id: number; name: TNames }>;
  tags: Array<{ id: number; name: TNames; parent_id: number | null }>;
  vacancies: TVacancyDoc[];
};

export function emptyTenant(slug: string, fields: Partial<TTenantDoc> = {}): TTenantDoc {
  return {
    slug,
    name: slug.toUpperCase(),
    default_language: 'en',
    api_keys: [],
    locations: [],
    companies: [],
    departments: [],
    job_types: [],
    experience_levels: [],
    education_levels: [],
    tags: [],
    vacancies: [],
    ...fields,
  };
}

// ---- The model ----

export type TModelFilters = {
  language?: string;
  location_id?: number[];
  department_id?: number[];
  company_location_id?: number[];
  search?: string;
  job_types?: number[];
  experience_levels?: number[];
  education_levels?: number[];
  tags?: number[];
  workplace_types?: string[];
};

export function isVisible(v: TVacancyDoc, now: number): boolean {
  return (
    v.status === 'published' &&
    v.channels.includes('api') &&
    v.published_at !== null &&
    Date.parse(v.published_at) <= now &&
    (v.ends_at == null || Date.parse(v.ends_at) > now)
  );
}

/** The given tags and every tag below them. */
export function withDescendants(tenant: TTenantDoc, tagIds: number[]): Set<number> {
  const result = new Set(tagIds);
  let grew = true;
  while (grew) {
    grew = false;
    for (const tag of tenant.tags) {
      if (tag.parent_id !== null && result.has(tag.parent_id) && !result.has(tag.id)) {
        result.add(tag.id);
        grew = true;
      }
    }
  }
  return result;
}

const anyOf = (wanted: number[] | undefined, have: number[]) =>
  !wanted || wanted.length === 0 || have.some((id) => wanted.includes(id));
const oneOf = (wanted: number[] | undefined, have: number | null | undefined) =>
  !wanted || wanted.length === 0 || (have != null && wanted.includes(have));

export function matches(tenant: TTenantDoc, v: TVacancyDoc, f: TModelFilters, now: number): boolean {
  if (!isVisible(v, now)) return false;
  if (f.language !== undefined && v.language !== f.language.toLowerCase()) return false;
  if (!oneOf(f.location_id, v.location_id)) return false;
  if (!oneOf(f.department_id, v.department_id)) return false;
  if (!oneOf(f.company_location_id, v.company_location_id)) return false;
  const term = f.search?.trim().toLowerCase();
  if (term && !v.title.toLowerCase().includes(term) && !(v.summary ?? '').toLowerCase().includes(term)) return false;
  if (f.workplace_types && f.workplace_types.length > 0 && !f.workplace_types.includes(v.workplace_type ?? 'on_site'))
    return false;
  if (!anyOf(f.job_types, v.job_type_ids ?? [])) return false;
  if (!anyOf(f.experience_levels, v.experience_level_ids ?? [])) return false;
  if (!anyOf(f.education_levels, v.education_level_ids ?? [])) return false;
  if (f.tags && f.tags.length > 0) {
    const wanted = withDescendants(tenant, f.tags);
    if (!(v.tag_ids ?? []).some((id) => wanted.has(id))) return false;
  }
  return true;
}

export type TModelSort = { sort: 'published_at' | 'title' | 'created_at'; direction: 'asc' | 'desc' };

export function sortVacancies(list: TVacancyDoc[], { sort, direction }: TModelSort): TVacancyDoc[] {
  const key = (v: TVacancyDoc): string | number =>
    sort === 'title'
      ? v.title.toLowerCase()
      : Date.parse((sort === 'published_at' ? v.published_at : v.created_at) ?? '');
  const sign = direction === 'asc' ? 1 : -1;
  return [...list].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
    return (a.id - b.id) * sign;
  });
}

export function listModel(tenant: TTenantDoc, f: TModelFilters, order: TModelSort, now: number): TVacancyDoc[] {
  return sortVacancies(
    tenant.vacancies.filter((v) => matches(tenant, v, f, now)),
    order,
  );
}

/** Facet counts of the model: group → id (or language code) → count (only counts ≥ 1). */
export function facetCountsModel(
  tenant: TTenantDoc,
  f: TModelFilters,
  now: number,
): Record<string, Record<string, number>> {
  const matching = tenant.vacancies.filter((v) => matches(tenant, v, f, now));
  const groups: Record<string, Record<string, number>> = {
    locations: {},
    departments: {},
    job_types: {},
    experience_levels: {},
    education_levels: {},
    tags: {},
    languages: {},
    workplace_types: {},
  };
  const add = (group: string, key: number | string) => {
    const counts = groups[group]!;
    counts[String(key)] = (counts[String(key)] ?? 0) + 1;
  };
  for (const v of matching) {
    if (v.location_id != null) add('locations', v.location_id);
    if (v.department_id != null) add('departments', v.department_id);
    for (const id of new Set(v.job_type_ids ?? [])) add('job_types', id);
    for (const id of new Set(v.experience_level_ids ?? [])) add('experience_levels', id);
    for (const id of new Set(v.education_level_ids ?? [])) add('education_levels', id);
    add('languages', v.language);
    add('workplace_types', v.workplace_type ?? 'on_site');
    for (const tag of tenant.tags) {
      const below = withDescendants(tenant, [tag.id]);
      if ((v.tag_ids ?? []).some((id) => below.has(id))) add('tags', tag.id);
    }
  }
  return groups;
}

/** A query string from filters, each id filter sent as `name[]` items. */
export function filterQuery(f: TModelFilters, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  if (f.language !== undefined) params.append('language', f.language);
  if (f.search !== undefined) params.append('search', f.search);
  const arrays: Array<keyof TModelFilters> = [
    'location_id',
    'department_id',
    'company_location_id',
    'job_types',
    'experience_levels',
    'education_levels',
    'tags',
  ];
  for (const name of arrays)
    for (const id of (f[name] as number[] | undefined) ?? []) params.append(`${name}[]`, String(id));
  for (const type of f.workplace_types ?? []) params.append('workplace_types[]', type);
  for (const [key, value] of Object.entries(extra)) params.append(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
