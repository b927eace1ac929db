import { sql, type ExpressionBuilder, type SqlBool, type Expression } from 'kysely';
import { visibleVacancy } from './vacancy-visibility.ts';
import type { TDB, TDb } from '../../db/kysely.ts';
import type { TTranslations } from '../taxonomies/taxonomy.entity.ts';
import type { TImageSet } from './vacancy.entity.ts';
import type { TFilterReference, TFilterTable, TVacancyFilters } from './vacancy-filters.ts';
import { MAX_DB_ID } from '../../lib/query.ts';

/**
 * The vacancy read queries. Every query goes through the tenant-scoped Kysely of the request (`ctx.db`),
 * which adds `tenant_id = <tenant>` to each table reference; pivot tables carry no tenant and are only
 * reached through a scoped vacancy or taxonomy row.
 */

export const VACANCY_SORTS = ['published_at', 'title', 'created_at'] as const;
export type TVacancySort = (typeof VACANCY_SORTS)[number];
export type TSortDirection = 'asc' | 'desc';

type TVacancyScope = ExpressionBuilder<TDB & { v: TDB['vacancies'] }, 'v'>;

/** LIKE pattern for a substring: `%`, `_` and the escape character `\` match themselves. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Ids of the given tags and of every tag below them, at any depth. */
function tagsWithDescendants(db: TDb, tagIds: number[]) {
  return db
    .withRecursive('tag_tree(id)', (qc) =>
      qc
        .selectFrom('tags')
        .select('tags.id')
        .where('tags.id', 'in', tagIds)
        // UNION (not ALL) also stops at a cycle, should one ever slip into the data.
        .union(qc.selectFrom('tags as child').innerJoin('tag_tree', 'tag_tree.id', 'child.parent_id').select('child.id')),
    )
    .selectFrom('tag_tree')
    .select('tag_tree.id');
}

function matchesFilters(db: TDb, eb: TVacancyScope, filters: TVacancyFilters): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [visibleVacancy('v')];
  if (filters.language !== undefined) conditions.push(eb('v.language', '=', filters.language));
  if (filters.locationIds.length > 0) conditions.push(eb('v.location_id', 'in', filters.locationIds));
  if (filters.departmentIds.length > 0) conditions.push(eb('v.department_id', 'in', filters.departmentIds));
  if (filters.companyLocationIds.length > 0) conditions.push(eb('v.company_location_id', 'in', filters.companyLocationIds));
  if (filters.search?.includes('\u0000')) {
    // Stored text never contains NUL (PostgreSQL refuses it), so such a search matches nothing.
    conditions.push(sql<SqlBool>`false`);
  } else if (filters.search !== undefined) {
    // lower() on both sides so the trigram indexes on lower(title) / lower(summary) apply; the database's
    // Unicode-aware lower() also folds non-ASCII letters.
    const pattern = sql<string>`lower(${containsPattern(filters.search)})`;
    conditions.push(eb.or([eb(eb.fn('lower', ['v.title']), 'like', pattern), eb(eb.fn('lower', ['v.summary']), 'like', pattern)]));
  }
  if (filters.jobTypeIds.length > 0) {
    conditions.push(
      eb.exists(
        eb.selectFrom('vacancy_job_types as x').select('x.vacancy_id').whereRef('x.vacancy_id', '=', 'v.id').where('x.job_type_id', 'in', filters.jobTypeIds),
      ),
    );
  }
  if (filters.experienceLevelIds.length > 0) {
    conditions.push(
      eb.exists(
        eb
          .selectFrom('vacancy_experience_levels as x')
          .select('x.vacancy_id')
          .whereRef('x.vacancy_id', '=', 'v.id')
          .where('x.experience_level_id', 'in', filters.experienceLevelIds),
      ),
    );
  }
  if (filters.educationLevelIds.length > 0) {
    conditions.push(
      eb.exists(
        eb
          .selectFrom('vacancy_education_levels as x')
          .select('x.vacancy_id')
          .whereRef('x.vacancy_id', '=', 'v.id')
          .where('x.education_level_id', 'in', filters.educationLevelIds),
      ),
    );
  }
  if (filters.tagIds.length > 0) {
    conditions.push(
      eb.exists(
        eb
          .selectFrom('vacancy_tags as x')
          .select('x.vacancy_id')
          .whereRef('x.vacancy_id', '=', 'v.id')
          .where('x.tag_id', 'in', tagsWithDescendants(db, filters.tagIds)),
      ),
    );
  }
  return eb.and(conditions);
}

/** Visible vacancies of the tenant that match the filters. */
function matchingVacancies(db: TDb, filters: TVacancyFilters) {
  return db.selectFrom('vacancies as v').where((eb) => matchesFilters(db, eb, filters));
}

/** Visible vacancies with their one-to-one relations joined (location, department, company location). */
function vacanciesWithPlaces(db: TDb, filters: TVacancyFilters) {
  return matchingVacancies(db, filters)
    .leftJoin('locations as l', 'l.id', 'v.location_id')
    .leftJoin('departments as d', 'd.id', 'v.department_id')
    .leftJoin('company_locations as cl', 'cl.id', 'v.company_location_id')
    .leftJoin('companies as c', 'c.id', 'cl.company_id')
    .select([
      'v.id',
      'v.slug',
      'v.title',
      'v.summary',
      'v.language',
      'v.accepts_applications',
      'v.views_count',
      'v.published_at',
      'v.ends_at',
      'v.created_at',
      'v.canonical_url',
      'v.compensation_min',
      'v.compensation_max',
      'v.compensation_currency',
      'v.compensation_period',
      sql<TImageSet | null>`${sql.ref('v.header_image')}`.as('header_image'),
      'l.id as location_id',
      'l.slug as location_slug',
      'l.name as location_name',
      'l.locality as location_city',
      'l.country_code as location_country_code',
      'd.id as department_id',
      sql<TTranslations | null>`${sql.ref('d.name')}`.as('department_name'),
      'cl.id as company_location_id',
      'cl.name as company_location_name',
      'cl.city as company_location_city',
      'cl.country_code as company_location_country_code',
      'c.name as company_name',
    ]);
}

export type TVacancyRow = {
  id: number;
  slug: string;
  title: string;
  summary: string | null;
  language: string;
  accepts_applications: boolean;
  views_count: number;
  published_at: Date | string | null;
  ends_at: Date | string | null;
  created_at: Date | string;
  canonical_url: string | null;
  compensation_min: number | null;
  compensation_max: number | null;
  compensation_currency: string | null;
  compensation_period: string | null;
  header_image: TImageSet | null;
  location_id: number | null;
  location_slug: string | null;
  location_name: string | null;
  location_city: string | null;
  location_country_code: string | null;
  department_id: number | null;
  department_name: TTranslations | null;
  company_location_id: number | null;
  company_location_name: string | null;
  company_location_city: string | null;
  company_location_country_code: string | null;
  company_name: string | null;
};

export type TVacancyDetailRow = TVacancyRow & { description: string | null; requirements: string | null; offer: string | null };

/** One page of matching vacancies, ordered with `id` as the tie-break in the same direction. */
export async function findVacancyPage(
  db: TDb,
  filters: TVacancyFilters,
  order: { sort: TVacancySort; direction: TSortDirection },
  page: { limit: number; offset: number },
): Promise<TVacancyRow[]> {
  const { sort, direction } = order;
  // Visible rows always have published_at, created_at and title, so "nulls last" needs no clause here,
  // and the plain orders match the partial indexes (scanned backwards for the other direction).
  const sortKey = sort === 'title' ? sql`lower(${sql.ref('v.title')})` : sql.ref(`v.${sort}`);
  return (await vacanciesWithPlaces(db, filters)
    .orderBy(sortKey, direction)
    .orderBy('v.id', direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute()) as TVacancyRow[];
}

export async function countVacancies(db: TDb, filters: TVacancyFilters): Promise<number> {
  const row = await matchingVacancies(db, filters).select(sql<number>`count(*)::int`.as('total')).executeTakeFirst();
  return row?.total ?? 0;
}

const NO_FILTERS: TVacancyFilters = {
  language: undefined,
  search: undefined,
  locationIds: [],
  departmentIds: [],
  companyLocationIds: [],
  jobTypeIds: [],
  experienceLevelIds: [],
  educationLevelIds: [],
  tagIds: [],
};

export async function findVisibleVacancyBySlug(db: TDb, slug: string): Promise<TVacancyDetailRow | undefined> {
  // No stored slug is longer or contains NUL (which PostgreSQL would refuse as a parameter).
  if (slug.length > 255 || slug.includes('\u0000')) return undefined;
  return (await vacanciesWithPlaces(db, NO_FILTERS)
    .select(['v.description', 'v.requirements', 'v.offer'])
    .where('v.slug', '=', slug)
    .executeTakeFirst()) as TVacancyDetailRow | undefined;
}

export type TTaxonomyRef = { id: number; name: TTranslations; parent_id: number | null };
export type TVacancyTaxonomies = {
  job_types: TTaxonomyRef[];
  experience_levels: TTaxonomyRef[];
  education_levels: TTaxonomyRef[];
  tags: TTaxonomyRef[];
};
type TTaxonomyKind = keyof TVacancyTaxonomies;

/** The job types, levels and tags of the given vacancies, in one query, each list ordered by id. */
export async function findVacancyTaxonomies(db: TDb, vacancyIds: number[]): Promise<Map<number, TVacancyTaxonomies>> {
  const result = new Map<number, TVacancyTaxonomies>();
  for (const id of vacancyIds) result.set(id, { job_types: [], experience_levels: [], education_levels: [], tags: [] });
  if (vacancyIds.length === 0) return result;
  const kind = (value: TTaxonomyKind) => sql<TTaxonomyKind>`${sql.lit(value)}::text`.as('kind');
  const name = (ref: string) => sql<TTranslations>`${sql.ref(ref)}`.as('name');
  const noParent = sql<number | null>`null::int`.as('parent_id');
  const rows = await db
    .selectFrom('vacancy_job_types as x')
    .innerJoin('job_types as t', 't.id', 'x.job_type_id')
    .select([kind('job_types'), 'x.vacancy_id', 't.id', name('t.name'), noParent])
    .where('x.vacancy_id', 'in', vacancyIds)
    .unionAll(
      db
        .selectFrom('vacancy_experience_levels as x')
        .innerJoin('experience_levels as t', 't.id', 'x.experience_level_id')
        .select([kind('experience_levels'), 'x.vacancy_id', 't.id', name('t.name'), noParent])
        .where('x.vacancy_id', 'in', vacancyIds),
    )
    .unionAll(
      db
        .selectFrom('vacancy_education_levels as x')
        .innerJoin('education_levels as t', 't.id', 'x.education_level_id')
        .select([kind('education_levels'), 'x.vacancy_id', 't.id', name('t.name'), noParent])
        .where('x.vacancy_id', 'in', vacancyIds),
    )
    .unionAll(
      db
        .selectFrom('vacancy_tags as x')
        .innerJoin('tags as t', 't.id', 'x.tag_id')
        .select([kind('tags'), 'x.vacancy_id', 't.id', name('t.name'), 't.parent_id'])
        .where('x.vacancy_id', 'in', vacancyIds),
    )
    .execute();
  for (const row of rows) result.get(row.vacancy_id)?.[row.kind].push({ id: row.id, name: row.name, parent_id: row.parent_id });
  for (const lists of result.values()) for (const list of Object.values(lists)) list.sort((a, b) => a.id - b.id);
  return result;
}


/** The filter ids that refer to nothing in the tenant, checked in one query. */
export async function findUnknownFilterReferences(db: TDb, references: TFilterReference[]): Promise<TFilterReference[]> {
  const idsByTable = new Map<TFilterTable, number[]>();
  // Ids beyond the integer column's range exist nowhere (and would make PostgreSQL fail the query).
  for (const { table, id } of references) if (id <= MAX_DB_ID) idsByTable.set(table, [...(idsByTable.get(table) ?? []), id]);
  const existing = (table: TFilterTable, ids: number[]) =>
    db.selectFrom(table).select([sql<string>`${sql.lit(table)}::text`.as('table_name'), `${table}.id as id`]).where(`${table}.id`, 'in', ids);
  const [first, ...rest] = [...idsByTable].map(([table, ids]) => existing(table, ids));
  if (!first) return references;
  const rows = await rest.reduce((query, next) => query.unionAll(next), first).execute();
  const found = new Set(rows.map((row) => `${row.table_name}:${row.id}`));
  return references.filter((ref) => !found.has(`${ref.table}:${ref.id}`));
}

export type TFacetGroup = 'locations' | 'departments' | 'job_types' | 'experience_levels' | 'education_levels' | 'tags' | 'languages' | 'total';

export type TFacetCountRow = {
  facet: TFacetGroup;
  id: number | null;
  code: string | null;
  count: number;
  /** A location's plain name, or the translations of a taxonomy entry. */
  name: string | TTranslations | null;
  city: string | null;
  country_code: string | null;
  parent_id: number | null;
};

function facetQuery(db: TDb, filters: TVacancyFilters) {
  return db
    .withRecursive('tag_closure(ancestor_id, descendant_id)', (qc) =>
      qc
        .selectFrom('tags')
        .select(['tags.id as ancestor_id', 'tags.id as descendant_id'])
        .union(
          qc
            .selectFrom('tag_closure as tc')
            .innerJoin('tags as child', 'child.parent_id', 'tc.descendant_id')
            .select(['tc.ancestor_id', 'child.id as descendant_id']),
        ),
    )
    .with(
      (cte) => cte('m').materialized(),
      // No ORDER BY: it would turn the heap scan into a full primary-key scan; the planner sorts the ids
      // itself where a merge join along a pivot's (vacancy_id, …) key pays off.
      () => matchingVacancies(db, filters).select(['v.id', 'v.location_id', 'v.department_id', 'v.language']),
    );
}

const facet = (group: TFacetGroup) => sql<TFacetGroup>`${sql.lit(group)}::text`.as('facet');
const nullInt = <TAlias extends 'id' | 'parent_id'>(alias: TAlias) => sql<number | null>`null::int`.as(alias);
const nullText = <TAlias extends 'code' | 'city' | 'country_code'>(alias: TAlias) => sql<string | null>`null::text`.as(alias);
const translations = (ref: string) => sql<string | TTranslations | null>`${sql.ref(ref)}`.as('name');
const nullJson = () => sql<null>`null::jsonb`.as('name');
const countAll = sql<number>`count(*)::int`.as('count');

/**
 * Facet counts over the vacancies matching every filter, in one round trip: the matching vacancies are
 * materialised once (CTE `m`), each group is counted and only then joined to its labels, and the groups are
 * UNION ALL-ed, plus one `total` row.
 *
 * Tags count distinct vacancies per tag including every tag below it. Instead of a DISTINCT over
 * (vacancy, ancestor) pairs, vacancies are first grouped by their set of tags — far fewer sets than
 * vacancies — and each set's ancestors are counted with the number of vacancies that carry it.
 */
export async function countFacets(db: TDb, filters: TVacancyFilters): Promise<TFacetCountRow[]> {
  const rows = await facetQuery(db, filters)
    .selectFrom((eb) =>
      eb.selectFrom('m').select(['m.location_id as id', countAll]).where('m.location_id', 'is not', null).groupBy('m.location_id').as('g'),
    )
    .innerJoin('locations as l', 'l.id', 'g.id')
    .select([
      facet('locations'),
      sql<number | null>`${sql.ref('l.id')}`.as('id'),
      nullText('code'),
      'g.count',
      sql<string | TTranslations | null>`to_jsonb(${sql.ref('l.name')})`.as('name'),
      'l.locality as city',
      'l.country_code',
      nullInt('parent_id'),
    ])
    .unionAll((eb) =>
      eb
        .selectFrom(
          eb.selectFrom('m').select(['m.department_id as id', countAll]).where('m.department_id', 'is not', null).groupBy('m.department_id').as('g'),
        )
        .innerJoin('departments as d', 'd.id', 'g.id')
        .select([facet('departments'), 'd.id', nullText('code'), 'g.count', translations('d.name'), nullText('city'), nullText('country_code'), nullInt('parent_id')]),
    )
    .unionAll((eb) =>
      eb
        .selectFrom(
          eb.selectFrom('m').innerJoin('vacancy_job_types as x', 'x.vacancy_id', 'm.id').select(['x.job_type_id as id', countAll]).groupBy('x.job_type_id').as('g'),
        )
        .innerJoin('job_types as t', 't.id', 'g.id')
        .select([facet('job_types'), 't.id', nullText('code'), 'g.count', translations('t.name'), nullText('city'), nullText('country_code'), nullInt('parent_id')]),
    )
    .unionAll((eb) =>
      eb
        .selectFrom(
          eb
            .selectFrom('m')
            .innerJoin('vacancy_experience_levels as x', 'x.vacancy_id', 'm.id')
            .select(['x.experience_level_id as id', countAll])
            .groupBy('x.experience_level_id')
            .as('g'),
        )
        .innerJoin('experience_levels as t', 't.id', 'g.id')
        .select([facet('experience_levels'), 't.id', nullText('code'), 'g.count', translations('t.name'), nullText('city'), nullText('country_code'), nullInt('parent_id')]),
    )
    .unionAll((eb) =>
      eb
        .selectFrom(
          eb
            .selectFrom('m')
            .innerJoin('vacancy_education_levels as x', 'x.vacancy_id', 'm.id')
            .select(['x.education_level_id as id', countAll])
            .groupBy('x.education_level_id')
            .as('g'),
        )
        .innerJoin('education_levels as t', 't.id', 'g.id')
        .select([facet('education_levels'), 't.id', nullText('code'), 'g.count', translations('t.name'), nullText('city'), nullText('country_code'), nullInt('parent_id')]),
    )
    .unionAll((eb) => {
      // Each distinct tag set of the matching vacancies, with the number of vacancies that carry it.
      const tagSets = eb
        .selectFrom(
          eb
            .selectFrom('m')
            .innerJoin('vacancy_tags as x', 'x.vacancy_id', 'm.id')
            .select(['x.vacancy_id', sql<number[]>`array_agg(${sql.ref('x.tag_id')} order by ${sql.ref('x.tag_id')})`.as('tag_set')])
            .groupBy('x.vacancy_id')
            .as('per_vacancy'),
        )
        .select(['per_vacancy.tag_set', sql<number>`count(*)`.as('vacancies')])
        .groupBy('per_vacancy.tag_set')
        .as('s');
      const setTags = eb.selectFrom(tagSets).select(['s.tag_set', 's.vacancies', sql<number>`unnest(${sql.ref('s.tag_set')})`.as('tag_id')]).as('st');
      // Each ancestor once per set, however many of the set's tags lie below it.
      const setAncestors = eb
        .selectFrom(setTags)
        .innerJoin('tag_closure as tc', 'tc.descendant_id', 'st.tag_id')
        .select(['st.tag_set', 'st.vacancies', 'tc.ancestor_id'])
        .distinct()
        .as('sa');
      return eb
        .selectFrom(
          eb
            .selectFrom(setAncestors)
            .select(['sa.ancestor_id as id', sql<number>`sum(${sql.ref('sa.vacancies')})::int`.as('count')])
            .groupBy('sa.ancestor_id')
            .as('g'),
        )
        .innerJoin('tags as t', 't.id', 'g.id')
        .select([facet('tags'), 't.id', nullText('code'), 'g.count', translations('t.name'), nullText('city'), nullText('country_code'), 't.parent_id']);
    })
    .unionAll((eb) =>
      eb
        .selectFrom('m')
        .select([facet('languages'), nullInt('id'), 'm.language as code', countAll, nullJson(), nullText('city'), nullText('country_code'), nullInt('parent_id')])
        .groupBy('m.language'),
    )
    .unionAll((eb) =>
      eb.selectFrom('m').select([facet('total'), nullInt('id'), nullText('code'), countAll, nullJson(), nullText('city'), nullText('country_code'), nullInt('parent_id')]),
    )
    .execute();
  return rows as TFacetCountRow[];
}
