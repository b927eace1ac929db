import { sql, type ExpressionBuilder } from 'kysely';
import type { TDB, TDb } from '../../db/kysely.ts';
import type { TTranslations } from '../taxonomies/taxonomy.entity.ts';
import { tagTreeBody } from '../taxonomies/taxonomies.repository.ts';
import { VACANCY_ID_FILTERS, type TVacancyFilters, type TVacancyIdFilter } from './vacancy-filters.ts';
import { matchingVacancies } from './vacancy.repository.ts';

/**
 * The facet counts of `GET /vacancies/facets`: how many of the vacancies matching the filters each location,
 * department, taxonomy entry, language and workplace type has, in one query (through the tenant-scoped Kysely).
 */

export type TFacetGroup =
  | 'locations'
  | 'departments'
  | 'job_types'
  | 'experience_levels'
  | 'education_levels'
  | 'tags'
  | 'languages'
  | 'workplace_types'
  | 'total';

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
  return (
    db
      // Every tag with each tag at or above it: the counts of a tag include the vacancies of the tags below it.
      .withRecursive('tag_tree(id, root_id)', (qc) => tagTreeBody(qc))
      .with(
        (cte) => cte('m').materialized(),
        // No ORDER BY: it would turn the heap scan into a full primary-key scan; the planner sorts the ids
        // itself where a merge join along a pivot's (vacancy_id, …) key pays off.
        () =>
          matchingVacancies(db, filters).select([
            'v.id',
            'v.location_id',
            'v.department_id',
            'v.language',
            'v.workplace_type',
          ]),
      )
  );
}

const facet = (group: TFacetGroup) => sql<TFacetGroup>`${sql.lit(group)}::text`.as('facet');
const nullInt = <TAlias extends 'id' | 'parent_id'>(alias: TAlias) => sql<number | null>`null::int`.as(alias);
const nullText = <TAlias extends 'code' | 'city' | 'country_code'>(alias: TAlias) =>
  sql<string | null>`null::text`.as(alias);
const translations = (ref: string) => sql<string | TTranslations | null>`${sql.ref(ref)}`.as('name');
const nullJson = () => sql<null>`null::jsonb`.as('name');
const countAll = sql<number>`count(*)::int`.as('count');

/** What the facet arms select from: the tenant's tables and the matching vacancies `m`. */
type TFacetScope = TDB & {
  m: { id: number; location_id: number | null; department_id: number | null; language: string; workplace_type: string };
};

/** The flat taxonomies a vacancy links to (job types, experience and education levels): one facet arm each. */
const TAXONOMY_FACETS = VACANCY_ID_FILTERS.filter(
  (filter): filter is Extract<TVacancyIdFilter, { match: { link: string } }> =>
    'link' in filter.match && !('withDescendants' in filter.match),
);

/** A taxonomy's counts over the matching vacancies `m`, joined to its labels (the link table and table the filter names). */
function taxonomyFacetArm(eb: ExpressionBuilder<TFacetScope, never>, filter: (typeof TAXONOMY_FACETS)[number]) {
  // The names differ per taxonomy; the shape is one (typed as the job types').
  const { link, column } = filter.match;
  return eb
    .selectFrom(
      eb
        .selectFrom('m')
        .innerJoin(`${link} as x` as 'vacancy_job_types as x', 'x.vacancy_id', 'm.id')
        .select([`x.${column} as id` as 'x.job_type_id as id', countAll])
        .groupBy(`x.${column}` as 'x.job_type_id')
        .as('g'),
    )
    .innerJoin(`${filter.table} as t` as 'job_types as t', 't.id', 'g.id')
    .select([
      facet(filter.table),
      't.id',
      nullText('code'),
      'g.count',
      translations('t.name'),
      nullText('city'),
      nullText('country_code'),
      nullInt('parent_id'),
    ]);
}

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
      eb
        .selectFrom('m')
        .select(['m.location_id as id', countAll])
        .where('m.location_id', 'is not', null)
        .groupBy('m.location_id')
        .as('g'),
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
          eb
            .selectFrom('m')
            .select(['m.department_id as id', countAll])
            .where('m.department_id', 'is not', null)
            .groupBy('m.department_id')
            .as('g'),
        )
        .innerJoin('departments as d', 'd.id', 'g.id')
        .select([
          facet('departments'),
          'd.id',
          nullText('code'),
          'g.count',
          translations('d.name'),
          nullText('city'),
          nullText('country_code'),
          nullInt('parent_id'),
        ]),
    )
    .unionAll((eb) =>
      TAXONOMY_FACETS.map((filter) => taxonomyFacetArm(eb, filter)).reduce((arms, arm) => arms.unionAll(arm)),
    )
    .unionAll((eb) => {
      // Each distinct tag set of the matching vacancies, with the number of vacancies that carry it.
      const tagSets = eb
        .selectFrom(
          eb
            .selectFrom('m')
            .innerJoin('vacancy_tags as x', 'x.vacancy_id', 'm.id')
            .select([
              'x.vacancy_id',
              sql<number[]>`array_agg(${sql.ref('x.tag_id')} order by ${sql.ref('x.tag_id')})`.as('tag_set'),
            ])
            .groupBy('x.vacancy_id')
            .as('per_vacancy'),
        )
        .select(['per_vacancy.tag_set', sql<number>`count(*)`.as('vacancies')])
        .groupBy('per_vacancy.tag_set')
        .as('s');
      const setTags = eb
        .selectFrom(tagSets)
        .select(['s.tag_set', 's.vacancies', sql<number>`unnest(${sql.ref('s.tag_set')})`.as('tag_id')])
        .as('st');
      // Each ancestor once per set, however many of the set's tags lie below it.
      const setAncestors = eb
        .selectFrom(setTags)
        .innerJoin('tag_tree as tc', 'tc.id', 'st.tag_id')
        .select(['st.tag_set', 'st.vacancies', 'tc.root_id as ancestor_id'])
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
        .select([
          facet('tags'),
          't.id',
          nullText('code'),
          'g.count',
          translations('t.name'),
          nullText('city'),
          nullText('country_code'),
          't.parent_id',
        ]);
    })
    .unionAll((eb) =>
      eb
        .selectFrom('m')
        .select([
          facet('languages'),
          nullInt('id'),
          'm.language as code',
          countAll,
          nullJson(),
          nullText('city'),
          nullText('country_code'),
          nullInt('parent_id'),
        ])
        .groupBy('m.language'),
    )
    .unionAll((eb) =>
      eb
        .selectFrom('m')
        .select([
          facet('workplace_types'),
          nullInt('id'),
          'm.workplace_type as code',
          countAll,
          nullJson(),
          nullText('city'),
          nullText('country_code'),
          nullInt('parent_id'),
        ])
        .groupBy('m.workplace_type'),
    )
    .unionAll((eb) =>
      eb
        .selectFrom('m')
        .select([
          facet('total'),
          nullInt('id'),
          nullText('code'),
          countAll,
          nullJson(),
          nullText('city'),
          nullText('country_code'),
          nullInt('parent_id'),
        ]),
    )
    .execute();
  return rows as TFacetCountRow[];
}
