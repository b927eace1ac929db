import type { Pool } from 'pg';
import {
  AppError,
  paginate,
  type TVacancyFilters,
  type TFacetCountRow,
  type TTaxonomyRef,
  type TVacancyBaseDetailRow,
  type TVacancyReferences,
  toVacancyDetail,
  toVacancyFacets,
  toVacancyListItem,
  type TVacancyView,
} from '@careers/core/bench';
import type { TCaller } from './auth.ts';
import { enumParam, idsParam, intParam, invalid, languageParam, type TAnswer, type TRequest } from './http.ts';
import { SqlParams, onlyParams } from './sql.ts';

/** CONTRACT's visibility of a vacancy `v`, literal so the partial indexes apply. */
const VISIBLE = `v.status = 'published' and 'api' = any(v.channels) and v.published_at <= now() and (v.ends_at is null or v.ends_at > now())`;

/** The id filters: parameter → the table its ids must exist in, and how a vacancy matches them. */
const ID_FILTERS = {
  location_id: { table: 'locations', match: (ids: string) => `v.location_id = any(${ids})` },
  department_id: { table: 'departments', match: (ids: string) => `v.department_id = any(${ids})` },
  company_location_id: { table: 'company_locations', match: (ids: string) => `v.company_location_id = any(${ids})` },
  job_types: {
    table: 'job_types',
    match: (ids: string) =>
      `exists (select from vacancy_job_types x where x.vacancy_id = v.id and x.job_type_id = any(${ids}))`,
  },
  experience_levels: {
    table: 'experience_levels',
    match: (ids: string) =>
      `exists (select from vacancy_experience_levels x where x.vacancy_id = v.id and x.experience_level_id = any(${ids}))`,
  },
  education_levels: {
    table: 'education_levels',
    match: (ids: string) =>
      `exists (select from vacancy_education_levels x where x.vacancy_id = v.id and x.education_level_id = any(${ids}))`,
  },
  tags: {
    table: 'tags',
    match: (ids: string) => `exists (select from vacancy_tags x where x.vacancy_id = v.id and x.tag_id = any(${ids}))`,
  },
} as const;
type TIdFilter = keyof typeof ID_FILTERS;

type TRequestFilters = { language?: string; search?: string; ids: Record<TIdFilter, number[]> };

function filtersOf(query: TRequest['query']): TRequestFilters {
  const search = query.search;
  if (search !== undefined && (typeof search !== 'string' || search.length > 255))
    invalid('search', 'The search must be a string of at most 255 characters.');
  const ids = Object.fromEntries(Object.keys(ID_FILTERS).map((name) => [name, idsParam(query, name)])) as Record<
    TIdFilter,
    number[]
  >;
  return { language: languageParam(query), search: search?.trim() || undefined, ids };
}

/** What the DTO mappers of the product call filters (for `selected`). */
function asVacancyFilters(filters: TRequestFilters): TVacancyFilters {
  const { ids } = filters;
  return {
    language: filters.language,
    search: filters.search,
    q: undefined,
    workplaceTypes: [],
    near: undefined,
    locationIds: ids.location_id,
    departmentIds: ids.department_id,
    companyLocationIds: ids.company_location_id,
    jobTypeIds: ids.job_types,
    experienceLevelIds: ids.experience_levels,
    educationLevelIds: ids.education_levels,
    tagIds: ids.tags,
  };
}

/**
 * One query: every filter id must exist in the tenant (else 422 on its field), and the tags come back with every tag
 * below them. Returns the WHERE clause of the matching vacancies (on `v`) for `sql`.
 */
async function matching(pool: Pool, caller: TCaller, filters: TRequestFilters, sql: SqlParams): Promise<string> {
  const conditions = [`v.tenant_id = ${sql.tenant}`, VISIBLE];
  if (filters.language) conditions.push(`v.language = ${sql.add(filters.language)}`);
  if (filters.search) {
    const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const p = sql.add(pattern);
    conditions.push(`(lower(v.title) like lower(${p}) or lower(v.summary) like lower(${p}))`);
  }
  const named = (Object.keys(ID_FILTERS) as TIdFilter[]).filter((name) => filters.ids[name].length > 0);
  if (named.length === 0) return conditions.join(' and ');
  const check = new SqlParams(caller.tenantId);
  const found = named.map(
    (name) =>
      `(select coalesce(array_agg(id), '{}') from ${ID_FILTERS[name].table} where tenant_id = $1 and id = any(${check.add(filters.ids[name])}::int[])) as ${name}`,
  );
  if (filters.ids.tags.length > 0) {
    found.push(`(with recursive tree(id) as (select id from tags where tenant_id = $1 and id = any(${check.add(filters.ids.tags)}::int[])
      union select t.id from tags t join tree on t.parent_id = tree.id where t.tenant_id = $1) select array_agg(id) from tree) as tag_tree`);
  }
  const { rows } = await pool.query(`select ${found.join(', ')}`, check.values);
  const row = rows[0] as Record<string, number[]>;
  const errors: Record<string, string[]> = {};
  for (const name of named) {
    filters.ids[name].forEach((id, index) => {
      if (!row[name]!.includes(id)) errors[`${name}.${index}`] = [`The selected ${name}.${index} is invalid.`];
    });
  }
  if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  for (const name of named)
    conditions.push(ID_FILTERS[name].match(`${sql.add(name === 'tags' ? row.tag_tree : filters.ids[name])}::int[]`));
  return conditions.join(' and ');
}

const COLUMNS = `v.id, v.slug, v.title, v.summary, v.language, v.accepts_applications, v.views_count, v.published_at, v.ends_at, v.created_at,
  v.canonical_url, v.compensation_min, v.compensation_max, v.compensation_currency, v.compensation_period, v.header_image,
  v.location_id, v.department_id, v.company_location_id, v.workplace_type, v.remote_countries`;

/** A taxonomy's entries of the vacancy `v`, with their names, in id order. */
const taxonomy = (pivot: string, column: string, table: string, parent: string) =>
  `(select coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'parent_id', ${parent}) order by t.id), '[]')
    from ${pivot} x join ${table} t on t.id = x.${column} and t.tenant_id = $1 where x.vacancy_id = v.id) as ${table}`;

/** Everything the vacancy `v` refers to, with the names an answer shows. */
const NAMES = `
  (select json_build_object('id', l.id, 'slug', l.slug, 'name', l.name, 'city', l.locality, 'country_code', l.country_code)
    from locations l where l.id = v.location_id and l.tenant_id = $1) as location,
  (select json_build_object('id', d.id, 'name', d.name) from departments d where d.id = v.department_id and d.tenant_id = $1) as department,
  (select json_build_object('id', cl.id, 'name', cl.name, 'city', cl.city, 'country_code', cl.country_code, 'company_name', c.name)
    from company_locations cl left join companies c on c.id = cl.company_id and c.tenant_id = $1
    where cl.id = v.company_location_id and cl.tenant_id = $1) as company_location,
  ${taxonomy('vacancy_job_types', 'job_type_id', 'job_types', 'null')},
  ${taxonomy('vacancy_experience_levels', 'experience_level_id', 'experience_levels', 'null')},
  ${taxonomy('vacancy_education_levels', 'education_level_id', 'education_levels', 'null')},
  ${taxonomy('vacancy_tags', 'tag_id', 'tags', 't.parent_id')}`;

type TNamedRow = TVacancyBaseDetailRow & {
  location: { id: number; slug: string; name: string; city: string | null; country_code: string | null } | null;
  department: { id: number; name: string } | null;
  company_location: {
    id: number;
    name: string;
    city: string | null;
    country_code: string | null;
    company_name: string | null;
  } | null;
  job_types: TTaxonomyRef[];
  experience_levels: TTaxonomyRef[];
  education_levels: TTaxonomyRef[];
  tags: TTaxonomyRef[];
};

/** The product's mappers take rows with ids plus the referenced names by id: both come from the joined rows. */
function withReferences(rows: TNamedRow[]): { rows: TNamedRow[]; refs: TVacancyReferences } {
  const refs: TVacancyReferences = {
    locations: new Map(),
    departments: new Map(),
    companyLocations: new Map(),
    job_types: new Map(),
    experience_levels: new Map(),
    education_levels: new Map(),
    tags: new Map(),
  };
  for (const row of rows) {
    if (row.location) refs.locations.set(row.location.id, row.location);
    if (row.department) refs.departments.set(row.department.id, row.department);
    if (row.company_location) refs.companyLocations.set(row.company_location.id, row.company_location);
    for (const group of ['job_types', 'experience_levels', 'education_levels', 'tags'] as const)
      for (const entry of row[group]) refs[group].set(entry.id, entry);
    row.job_type_ids = row.job_types.map((entry) => entry.id);
    row.experience_level_ids = row.experience_levels.map((entry) => entry.id);
    row.education_level_ids = row.education_levels.map((entry) => entry.id);
    row.tag_ids = row.tags.map((entry) => entry.id);
  }
  return { rows, refs };
}

function viewOf(caller: TCaller, language: string | undefined): TVacancyView {
  return {
    language,
    defaultLanguage: caller.defaultLanguage,
    urlPattern: caller.urlPattern,
    includeMedia: false,
    includeCompensation: false,
    includeCompanyName: false,
  };
}

const SORT_KEYS = { published_at: 'v.published_at', created_at: 'v.created_at', title: 'lower(v.title)' } as const;

const FILTER_PARAMS = ['language', 'search', ...Object.keys(ID_FILTERS)];

/** GET /vacancies: the page (cut on ids first, then read with its names) and the total, side by side. */
export async function listVacancies(pool: Pool, caller: TCaller, request: TRequest): Promise<TAnswer> {
  const { query } = request;
  onlyParams(query, [...FILTER_PARAMS, 'page', 'per_page', 'sort', 'sort_direction']);
  const page = intParam(query, 'page', 1, 1_000_000);
  const perPage = intParam(query, 'per_page', 20, 100);
  const sortKey = SORT_KEYS[enumParam(query, 'sort', ['published_at', 'title', 'created_at'] as const, 'published_at')];
  const direction = enumParam(query, 'sort_direction', ['asc', 'desc'] as const, 'desc');
  const filters = filtersOf(query);
  const sql = new SqlParams(caller.tenantId);
  const where = await matching(pool, caller, filters, sql);
  const countSql = `select count(*)::int as total from vacancies v where ${where}`;
  const countValues = [...sql.values];
  const pageSql = `select ${COLUMNS}, ${NAMES}
    from (select v.id, ${sortKey} as sort_key from vacancies v where ${where}
          order by ${sortKey} ${direction}, v.id ${direction} limit ${sql.add(perPage)} offset ${sql.add((page - 1) * perPage)}) p
    join vacancies v on v.id = p.id and v.tenant_id = $1
    order by p.sort_key ${direction}, p.id ${direction}`;
  const [rows, count] = await Promise.all([pool.query(pageSql, sql.values), pool.query(countSql, countValues)]);
  const view = viewOf(caller, filters.language);
  const named = withReferences(rows.rows);
  const items = named.rows.map((row) => toVacancyListItem(row, named.refs, view));
  return { status: 200, body: paginate(items, count.rows[0].total, page, perPage, request.url) };
}

/** GET /vacancies/facets: every group counted over the matching vacancies in one statement. */
export async function vacancyFacets(pool: Pool, caller: TCaller, request: TRequest): Promise<TAnswer> {
  onlyParams(request.query, FILTER_PARAMS);
  const filters = filtersOf(request.query);
  const sql = new SqlParams(caller.tenantId);
  const where = await matching(pool, caller, filters, sql);
  const counted = (facet: string, table: string, grouped: string, name: string, extra = 'null, null, null') =>
    `select '${facet}', t.id, null, g.count, ${name}, ${extra} from (${grouped}) g join ${table} t on t.id = g.id and t.tenant_id = $1`;
  const pivot = (table: string, column: string) =>
    `select x.${column} as id, count(*)::int as count from m join ${table} x on x.vacancy_id = m.id group by 1`;
  const { rows } = await pool.query<TFacetCountRow>(
    `with recursive closure(ancestor_id, descendant_id) as (
       select id, id from tags where tenant_id = $1
       union select c.ancestor_id, t.id from closure c join tags t on t.parent_id = c.descendant_id and t.tenant_id = $1),
     m as materialized (select v.id, v.location_id, v.department_id, v.language, v.workplace_type from vacancies v where ${where}),
     -- A tag counts the vacancies carrying it or a tag below it, each once: count per distinct set of tags, then per
     -- ancestor of each set (far fewer sets than vacancies).
     tag_sets as (select array_agg(x.tag_id order by x.tag_id) as tags from m join vacancy_tags x on x.vacancy_id = m.id group by x.vacancy_id),
     set_ancestors as (select distinct s.tags, s.vacancies, c.ancestor_id
       from (select tags, count(*) as vacancies from tag_sets group by tags) s cross join unnest(s.tags) as u(tag_id) join closure c on c.descendant_id = u.tag_id)
     select 'locations'::text as facet, t.id, null::text as code, g.count, to_jsonb(t.name) as name, t.locality as city, t.country_code, null::int as parent_id
       from (select location_id as id, count(*)::int as count from m where location_id is not null group by 1) g join locations t on t.id = g.id and t.tenant_id = $1
     union all ${counted('departments', 'departments', 'select department_id as id, count(*)::int as count from m where department_id is not null group by 1', 't.name')}
     union all ${counted('job_types', 'job_types', pivot('vacancy_job_types', 'job_type_id'), 't.name')}
     union all ${counted('experience_levels', 'experience_levels', pivot('vacancy_experience_levels', 'experience_level_id'), 't.name')}
     union all ${counted('education_levels', 'education_levels', pivot('vacancy_education_levels', 'education_level_id'), 't.name')}
     union all ${counted('tags', 'tags', 'select ancestor_id as id, sum(vacancies)::int as count from set_ancestors group by 1', 't.name', 'null, null, t.parent_id')}
     union all select 'languages', null, m.language, count(*)::int, null, null, null, null from m group by m.language
     union all select 'workplace_types', null, m.workplace_type, count(*)::int, null, null, null, null from m group by m.workplace_type
     union all select 'total', null, null, count(*)::int, null, null, null, null from m`,
    sql.values,
  );
  const total = rows.find((row) => row.facet === 'total')?.count ?? 0;
  return {
    status: 200,
    body: { data: toVacancyFacets(rows, asVacancyFilters(filters), viewOf(caller, filters.language)), meta: { total } },
  };
}

/** Detail views are counted in memory and added once a second, as the product does. */
export class ReferenceViews {
  readonly #pool: Pool;
  readonly #counts = new Map<number, number>();

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  record(id: number): void {
    this.#counts.set(id, (this.#counts.get(id) ?? 0) + 1);
  }

  async flush(): Promise<void> {
    if (this.#counts.size === 0) return;
    const counts = [...this.#counts];
    this.#counts.clear();
    await this.#pool.query(
      `update vacancies v set views_count = v.views_count + c.n from unnest($1::int[], $2::int[]) as c(id, n) where v.id = c.id`,
      [counts.map(([id]) => id), counts.map(([, n]) => n)],
    );
  }
}

/** GET /vacancies/{slug}: one query for the vacancy and its names. */
export async function getVacancy(
  pool: Pool,
  caller: TCaller,
  request: TRequest,
  slug: string,
  views: ReferenceViews,
): Promise<TAnswer> {
  onlyParams(request.query, ['language']);
  const language = languageParam(request.query);
  if (slug.length > 255 || slug.includes('\0')) throw new AppError('NOT_FOUND');
  const { rows } = await pool.query(
    `select ${COLUMNS}, v.description, v.requirements, v.offer, ${NAMES} from vacancies v where v.tenant_id = $1 and ${VISIBLE} and v.slug = $2`,
    [caller.tenantId, slug],
  );
  if (rows.length === 0) throw new AppError('NOT_FOUND');
  const named = withReferences(rows);
  const detail = toVacancyDetail(named.rows[0]!, named.refs, viewOf(caller, language));
  views.record(detail.id);
  return { status: 200, body: { data: detail } };
}
