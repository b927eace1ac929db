import type { TDb } from '../../db/kysely.ts';
import { AppError, type TFieldErrors } from '../../lib/errors.ts';
import { pageOffset, paginate, type TPage } from '../../lib/pagination.ts';
import { attributeName } from '../../lib/validation.ts';
import type { ViewCounter } from '../../lib/view-counter.ts';
import type { TTenantContext } from '../api-keys/api-key.verifier.ts';
import { withViewCounts, type ContentCache } from '../content/content-cache.ts';
import { filterReferences, toVacancyFilters, type TVacancyFilterInput, type TVacancyFilters } from './vacancy-filters.ts';
import {
  countFacets,
  countVacancies,
  findUnknownFilterReferences,
  findVacancyPage,
  findVacancyTaxonomies,
  findVisibleVacancyBySlug,
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
export type TVacancyReadContext = { db: TDb; tenant: TTenantContext; url: URL; services: { content: ContentCache } };

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

/** Everything an answer depends on besides the tenant's content: the request and the tenant's settings. */
function cacheKey(ctx: TVacancyReadContext, kind: string, input: unknown): string {
  return JSON.stringify([kind, ctx.tenant.defaultLanguage, ctx.tenant.urlPattern, input]);
}

export type TListVacanciesRequest = TVacancyFilterInput &
  TViewFlags & { page: number; per_page: number; sort: TVacancySort; sort_direction: TSortDirection; include?: 'facets' | undefined };

export type TVacancyList = TPage<TVacancyListItem> & { facets?: TVacancyFacets };

export async function listVacancies(ctx: TVacancyReadContext, input: TListVacanciesRequest): Promise<TVacancyList> {
  const answer = await ctx.services.content.read(ctx.db, ctx.tenant.id, {
    key: cacheKey(ctx, 'vacancies.list', input),
    viewCounts: 'vacancies',
    compute: async () => {
      const filters = await resolveFilters(ctx, input);
      const view = viewOf(ctx, input.language, input);
      const [rows, total, facetRows] = await Promise.all([
        findVacancyPage(ctx.db, filters, { sort: input.sort, direction: input.sort_direction }, { limit: input.per_page, offset: pageOffset(input.page, input.per_page) }),
        countVacancies(ctx.db, filters),
        input.include === 'facets' ? countFacets(ctx.db, filters) : undefined,
      ]);
      const taxonomies = await findVacancyTaxonomies(
        ctx.db,
        rows.map((row) => row.id),
      );
      const items = rows.map((row) => toVacancyListItem(row, taxonomies.get(row.id), view));
      const facets = facetRows ? toVacancyFacets(facetRows, filters, view) : undefined;
      return { value: { items, total, facets }, viewIds: items.map((item) => item.id) };
    },
  });
  const { items, total, facets } = answer.value;
  const page = paginate(withViewCounts(items, answer.views), total, input.page, input.per_page, ctx.url);
  return facets ? { ...page, facets } : page;
}

export async function vacancyFacets(ctx: TVacancyReadContext, input: TVacancyFilterInput): Promise<{ data: TVacancyFacets; meta: { total: number } }> {
  const answer = await ctx.services.content.read(ctx.db, ctx.tenant.id, {
    key: cacheKey(ctx, 'vacancies.facets', input),
    compute: async () => {
      const filters = await resolveFilters(ctx, input);
      const rows = await countFacets(ctx.db, filters);
      return { value: { data: toVacancyFacets(rows, filters, viewOf(ctx, input.language)), meta: { total: facetTotal(rows) } } };
    },
  });
  return answer.value;
}

/** A visible vacancy by its publication slug (404 otherwise); counts a view, batched. */
export async function getVacancy(
  ctx: TVacancyReadContext & { views: Pick<ViewCounter, 'record'> },
  input: TViewFlags & { slug: string; language?: string | undefined },
): Promise<{ data: TVacancyDetail }> {
  const answer = await ctx.services.content.read(ctx.db, ctx.tenant.id, {
    key: cacheKey(ctx, 'vacancies.detail', input),
    viewCounts: 'vacancies',
    compute: async () => {
      const row = await findVisibleVacancyBySlug(ctx.db, input.slug);
      if (!row) return { value: null };
      const taxonomies = await findVacancyTaxonomies(ctx.db, [row.id]);
      return { value: toVacancyDetail(row, taxonomies.get(row.id), viewOf(ctx, input.language, input)), viewIds: [row.id] };
    },
  });
  if (!answer.value) throw new AppError('NOT_FOUND');
  ctx.views.record('vacancies', answer.value.id);
  const [detail] = withViewCounts([answer.value], answer.views);
  return { data: detail! };
}
