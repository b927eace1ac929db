import type { TDb } from '../../db/kysely.ts';
import { AppError, type TFieldErrors } from '../../lib/errors.ts';
import { pageOffset, paginate, type TPage } from '../../lib/pagination.ts';
import { attributeName } from '../../lib/validation.ts';
import type { ViewCounter } from '../../lib/view-counter.ts';
import type { TTenantContext } from '../api-keys/api-key.verifier.ts';
import { vacancyAggregates } from './vacancy-aggregate-cache.ts';
import { filterReferences, toVacancyFilters, type TVacancyFilterInput, type TVacancyFilters } from './vacancy-filters.ts';
import {
  countFacets,
  countVacancies,
  findUnknownFilterReferences,
  findVacancyPage,
  findVacancyTaxonomies,
  findVisibleVacancyBySlug,
  tenantDataVersion,
  type TFacetCountRow,
  type TSortDirection,
  type TVacancySort,
} from './vacancy.repository.ts';
import {
  facetTotal,
  toVacancyDetail,
  toVacancyFacets,
  toVacancyListItem,
  type TVacancyDetail,
  type TVacancyFacets,
  type TVacancyListItem,
  type TVacancyView,
} from './vacancy.dto.ts';

/** What the vacancy reads need from a request: its tenant-scoped database, tenant and URL. */
export type TVacancyReadContext = { db: TDb; tenant: TTenantContext; url: URL };

type TViewFlags = { include_media: boolean; include_compensation: boolean; include_company_name: boolean };

function viewOf(ctx: TVacancyReadContext, language: string | undefined, flags?: TViewFlags): TVacancyView {
  return {
    language,
    defaultLanguage: ctx.tenant.defaultLanguage,
    urlPattern: ctx.tenant.urlPattern,
    includeMedia: flags?.include_media ?? false,
    includeCompensation: flags?.include_compensation ?? false,
    includeCompanyName: flags?.include_company_name ?? false,
  };
}

/** Filters of the request; a filter id that refers to nothing in the tenant is a 422 on its field. */
async function resolveFilters(ctx: TVacancyReadContext, input: TVacancyFilterInput): Promise<TVacancyFilters> {
  const unknown = await findUnknownFilterReferences(ctx.db, filterReferences(input));
  if (unknown.length > 0) {
    const errors: TFieldErrors = {};
    for (const { path } of unknown) errors[path] = [`The selected ${attributeName(path.split('.'))} is invalid.`];
    throw AppError.validation(errors);
  }
  return toVacancyFilters(input);
}

/** Equal filters in any spelling (order, duplicates, one id or a list) share one cache key. */
function filtersKey(filters: TVacancyFilters): string {
  const ids = (list: number[]) => [...new Set(list)].sort((a, b) => a - b);
  return JSON.stringify([
    filters.language ?? null,
    filters.search ?? null,
    ids(filters.locationIds),
    ids(filters.departmentIds),
    ids(filters.companyLocationIds),
    ids(filters.jobTypeIds),
    ids(filters.experienceLevelIds),
    ids(filters.educationLevelIds),
    ids(filters.tagIds),
  ]);
}

/** The expensive aggregates of one filter set (they scan every matching vacancy), briefly memoised. */
function aggregates(ctx: TVacancyReadContext, filters: TVacancyFilters) {
  const version = tenantDataVersion(ctx.db);
  const key = async (kind: string) => `${ctx.tenant.id}:${await version}:${kind}:${filtersKey(filters)}`;
  return {
    total: async (): Promise<number> => vacancyAggregates.get(await key('total'), () => countVacancies(ctx.db, filters)),
    facets: async (): Promise<TFacetCountRow[]> => vacancyAggregates.get(await key('facets'), () => countFacets(ctx.db, filters)),
  };
}

export type TListVacanciesRequest = TVacancyFilterInput &
  TViewFlags & { page: number; per_page: number; sort: TVacancySort; sort_direction: TSortDirection; include?: 'facets' | undefined };

export type TVacancyList = TPage<TVacancyListItem> & { facets?: TVacancyFacets };

export async function listVacancies(ctx: TVacancyReadContext, input: TListVacanciesRequest): Promise<TVacancyList> {
  const filters = await resolveFilters(ctx, input);
  const view = viewOf(ctx, input.language, input);
  const cached = aggregates(ctx, filters);
  const [rows, total, facetRows] = await Promise.all([
    findVacancyPage(ctx.db, filters, { sort: input.sort, direction: input.sort_direction }, { limit: input.per_page, offset: pageOffset(input.page, input.per_page) }),
    cached.total(),
    input.include === 'facets' ? cached.facets() : undefined,
  ]);
  const taxonomies = await findVacancyTaxonomies(
    ctx.db,
    rows.map((row) => row.id),
  );
  const items = rows.map((row) => toVacancyListItem(row, taxonomies.get(row.id), view));
  const page = paginate(items, total, input.page, input.per_page, ctx.url);
  return facetRows ? { ...page, facets: toVacancyFacets(facetRows, filters, view) } : page;
}

export async function vacancyFacets(ctx: TVacancyReadContext, input: TVacancyFilterInput): Promise<{ data: TVacancyFacets; meta: { total: number } }> {
  const filters = await resolveFilters(ctx, input);
  const rows = await aggregates(ctx, filters).facets();
  return { data: toVacancyFacets(rows, filters, viewOf(ctx, input.language)), meta: { total: facetTotal(rows) } };
}

/** A visible vacancy by its publication slug (404 otherwise); counts a view, batched. */
export async function getVacancy(
  ctx: TVacancyReadContext & { views: Pick<ViewCounter, 'record'> },
  input: TViewFlags & { slug: string; language?: string | undefined },
): Promise<{ data: TVacancyDetail }> {
  const row = await findVisibleVacancyBySlug(ctx.db, input.slug);
  if (!row) throw new AppError('NOT_FOUND');
  const taxonomies = await findVacancyTaxonomies(ctx.db, [row.id]);
  ctx.views.record('vacancies', row.id);
  return { data: toVacancyDetail(row, taxonomies.get(row.id), viewOf(ctx, input.language, input)) };
}
