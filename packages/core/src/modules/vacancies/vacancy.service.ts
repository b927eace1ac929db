import type { TDb } from '../../db/kysely.ts';
import type { TServiceContext } from '../service-context.ts';
import { AppError, type TFieldErrors } from '../../lib/errors.ts';
import { pageOffset, paginate } from '../../lib/pagination.ts';
import type { ViewCounter } from '../content/view-counter.ts';
import type { TTenantContext } from '../api-keys/api-key.verifier.ts';
import { contentKey, type ContentCache, type TComputation, type TContentReader } from '../content/content-cache.ts';
import { SerializedForm, servedAnswer, type TAnswerTransport } from '../content/serialized-answer.ts';
import {
  ZVacancyAnswer,
  ZVacancyFacetsAnswer,
  ZVacancyPage,
  ZVacancySuggestions,
  type TVacancyAnswer,
  type TVacancyFacetsAnswer,
  type TVacancyPage,
  type TVacancySuggestions,
  type TVacancySuggestionsRequest,
} from './vacancy-answers.ts';
import {
  FILTER_ID_FIELDS,
  ZVacancyFilterFields,
  filterReferences,
  toVacancyFilters,
  vacancyFiltersKey,
  type TVacancyFilterInput,
  type TVacancyFilters,
} from './vacancy-filters.ts';
import { checkReferences } from '../taxonomies/taxonomy-references.ts';
import { findTagsWithDescendants } from '../taxonomies/taxonomies.repository.ts';
import { countFacets } from './vacancy-facets.repository.ts';
import {
  countVacancies,
  findCandidateOrder,
  findTitleSuggestions,
  findVacancyRowsByIds,
  findVacancyPage,
  findVacancyPageAnchors,
  findVacancyReferences,
  findVisibleVacancyBySlug,
  findJobPostingFacts,
  type TSortDirection,
  type TVacancyBaseRow,
  type TVacancyPageRow,
  type TVacancyReferences,
  type TVacancySort,
} from './vacancy.repository.ts';
import {
  facetTotal,
  referencesCover,
  toVacancyDetail,
  toVacancyFacets,
  toVacancyListItem,
  liveUrl,
  withLiveFields,
  type TVacancyView,
} from './vacancy.dto.ts';
import { toJobPosting } from './vacancy-structured-data.ts';
import { findSearchPlan, findWordMatches, type TSearchPlan } from './vacancy-search.ts';
import { rankMatches, toCandidates } from './vacancy-ranking.ts';
import { findHighlights } from './vacancy-highlights.ts';
import { findLocationsNear, roundKm } from './vacancy-distance.ts';

/** What the vacancy reads need from a request: its tenant-scoped database, tenant, key, response and URL. */
export type TVacancyReadContext = TContentReader &
  TAnswerTransport & { db: TDb; tenant: TTenantContext; url: URL; services: { content: ContentCache } };

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

async function unknownFilterErrors(db: TDb, input: Parameters<typeof filterReferences>[0]): Promise<TFieldErrors> {
  return checkReferences(db, filterReferences(input));
}

/**
 * For a request whose query failed validation: the unknown ids among its filters that are valid on their own,
 * so one 422 lists them with the syntax errors (a bad `per_page` and an unknown `location_id` together).
 */
export async function filterErrorsOf(ctx: TServiceContext, input: { rawInput: unknown }): Promise<TFieldErrors> {
  const { rawInput } = input;
  if (typeof rawInput !== 'object' || rawInput === null) return {};
  const raw = rawInput as Record<string, unknown>;
  const valid: Record<string, unknown> = {};
  for (const field of FILTER_ID_FIELDS) {
    const parsed = ZVacancyFilterFields[field].safeParse(raw[field]);
    if (parsed.success) valid[field] = parsed.data;
  }
  return unknownFilterErrors(ctx.db, valid);
}

/**
 * Filters of the request; a filter id that refers to nothing in the tenant is a 422 on its field. `q` is resolved to
 * its search plan once per version (the typo lexicon and synonyms are content).
 */
async function resolveFilters(
  ctx: TVacancyReadContext,
  computation: TComputation,
  input: TVacancyFilterInput,
): Promise<TVacancyFilters> {
  const errors = await unknownFilterErrors(ctx.db, input);
  if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  const filters = toVacancyFilters(input);
  const { q, near } = filters;
  const [matchingTagIds, searchPlan, nearLocations] = await Promise.all([
    findTagsWithDescendants(ctx.db, filters.tagIds),
    q === undefined
      ? undefined
      : computation.shared(`vacancies.search-plan:${JSON.stringify(q)}`, () =>
          findSearchPlan(ctx.db, ctx.tenant.id, q),
        ),
    near === undefined
      ? undefined
      : computation.shared(`vacancies.near:${JSON.stringify(near)}`, () =>
          findLocationsNear(ctx.db, near, near.radiusKm),
        ),
  ]);
  return {
    ...filters,
    matchingTagIds,
    ...(q === undefined ? {} : { searchPlan }),
    ...(nearLocations === undefined ? {} : { nearLocations }),
  };
}

/**
 * The order of a list: the requested sort, else relevance with `q`, else newest first; in the requested direction,
 * else nearest first for distance and descending for every other sort (newest, most relevant).
 */
export function listOrder(input: Pick<TListVacanciesRequest, 'sort' | 'sort_direction' | 'q'>): {
  sort: TVacancySort;
  direction: TSortDirection;
} {
  const sort = input.sort ?? (input.q !== undefined ? 'relevance' : 'published_at');
  return { sort, direction: input.sort_direction ?? (sort === 'distance' ? 'asc' : 'desc') };
}

/** Facet counts of a filter (GET /vacancies/facets and include=facets share them), once per version. */
function facetCounts(ctx: TVacancyReadContext, computation: TComputation, filters: TVacancyFilters) {
  return computation.shared(`vacancies.facets:${vacancyFiltersKey(filters)}`, () => countFacets(ctx.db, filters));
}

/** Pages that start deeper than this many rows start from an anchor instead of walking every row before them. */
export const DEEP_OFFSET = 10_000;
/** Rows between two anchors: the most a deep page walks before its first row. */
export const ANCHOR_SPACING = 1_000;

/**
 * The rows of one page. A deep page starts from the nearest anchor — every ANCHOR_SPACING-th row of the filter
 * and order, found in one pass per content version like the total — so no request walks more than DEEP_OFFSET
 * index entries, and a deep page past the end costs no page query.
 */
async function vacancyPage(
  ctx: TVacancyReadContext,
  computation: TComputation,
  filters: TVacancyFilters,
  input: TListVacanciesRequest,
): Promise<{ rows: TVacancyPageRow[]; total?: number }> {
  const order = listOrder(input);
  const offset = pageOffset(input.page, input.per_page);
  if (order.sort === 'relevance' && filters.searchPlan && filters.searchPlan.words.length <= MAX_RANKED_WORDS)
    return relevancePage(
      { db: ctx.db, computation },
      {
        filters,
        plan: filters.searchPlan,
        direction: order.direction,
        page: { limit: input.per_page, offset },
      },
    );
  // Relevance and distance are computed per matching row anyway: their pages are cut by OFFSET alone.
  if (offset < DEEP_OFFSET || order.sort === 'relevance' || order.sort === 'distance')
    return { rows: await findVacancyPage(ctx.db, filters, order, { limit: input.per_page, offset }) };
  const indexOrder = { sort: order.sort, direction: order.direction };
  const anchors = await computation.shared(
    `vacancies.anchors:${vacancyFiltersKey(filters)}:${order.sort}:${order.direction}`,
    () => findVacancyPageAnchors(ctx.db, filters, indexOrder, ANCHOR_SPACING),
  );
  const from = anchors[Math.floor(offset / ANCHOR_SPACING)];
  if (!from) return { rows: [] };
  const page = { limit: input.per_page, offset: offset % ANCHOR_SPACING, from };
  return { rows: await findVacancyPage(ctx.db, filters, order, page) };
}

/**
 * Most words a `q` ranked in memory may have: each word is a scan of its own, so a long `q` (up to 255 characters) would
 * start dozens at once. Longer ones take the one SQL statement (`findVacancyPage`), bounded by the statement timeout.
 */
const MAX_RANKED_WORDS = 4;

/**
 * A page by relevance to `q`, ranked in memory (`vacancy-ranking.ts`) from sets shared per version: each word's
 * matches, and the vacancies the other filters let through; with the total (a page past the end too).
 */
export async function relevancePage(
  ctx: { db: TDb; computation: Pick<TComputation, 'shared'> },
  input: {
    filters: TVacancyFilters;
    plan: NonNullable<TSearchPlan>;
    direction: TSortDirection;
    page: { limit: number; offset: number };
  },
): Promise<{ rows: TVacancyPageRow[]; total: number }> {
  const { db, computation } = ctx;
  const { filters, plan, direction, page } = input;
  const [candidates, ...words] = await Promise.all([
    computation.shared(`vacancies.candidates:${vacancyFiltersKey({ ...filters, q: undefined })}`, async () =>
      toCandidates(await findCandidateOrder(db, filters)),
    ),
    ...plan.words.map((word) =>
      computation.shared(`vacancies.word-matches:${JSON.stringify(word)}`, () =>
        findWordMatches(db, plan.tenantId, word),
      ),
    ),
  ]);
  const ranked = rankMatches(candidates, words, direction, page);
  const rows = (await findVacancyRowsByIds(db, ranked.ids)).map((row) => ({ ...row, match_total: ranked.total }));
  return { rows, total: ranked.total };
}

export type TListVacanciesRequest = TVacancyFilterInput &
  TViewFlags & {
    page: number;
    per_page: number;
    sort?: TVacancySort | undefined;
    sort_direction?: TSortDirection | undefined;
    include?: 'facets' | undefined;
    include_highlights?: boolean | undefined;
  };

/**
 * The names the rows refer to: the tenant's references at the content version the answer is cached under,
 * read again if the rows refer to something newer (they were read after a change committed meanwhile).
 */
async function referencesFor(
  ctx: TVacancyReadContext,
  computation: TComputation,
  rows: TVacancyBaseRow[],
): Promise<TVacancyReferences> {
  const shared = await computation.shared('vacancy-references', () => findVacancyReferences(ctx.db));
  return referencesCover(rows, shared) ? shared : findVacancyReferences(ctx.db);
}

export async function listVacancies(ctx: TVacancyReadContext, input: TListVacanciesRequest): Promise<TVacancyPage> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('vacancies.list', ctx.tenant, input),
    viewCounts: 'vacancies',
    compute: async (computation) => {
      const filters = await resolveFilters(ctx, computation, input);
      const view = viewOf(ctx, input.language, input);
      const page = vacancyPage(ctx, computation, filters, input);
      const [{ rows }, total, facetRows] = await Promise.all([
        page,
        // Every page and sort of one filter shows the same total (and facets): computed once per version. A page
        // ranked by relevance counted the matches already.
        computation.shared(`vacancies.total:${vacancyFiltersKey(filters)}`, async () => {
          const { rows, total } = await page;
          return total ?? rows[0]?.match_total ?? countVacancies(ctx.db, filters);
        }),
        input.include === 'facets' ? facetCounts(ctx, computation, filters) : undefined,
      ]);
      const [refs, highlights] = await Promise.all([
        referencesFor(ctx, computation, rows),
        input.include_highlights ? findHighlights(ctx.db, filters.searchPlan ?? null, rows) : undefined,
      ]);
      const distances = filters.nearLocations;
      const items = rows.map((row) => {
        let item = toVacancyListItem(row, refs, view);
        if (distances)
          item = { ...item, distance_km: roundKm(distances.km[distances.ids.indexOf(row.location_id ?? 0)] ?? 0) };
        return highlights ? { ...item, highlights: highlights.get(row.id)! } : item;
      });
      const facets = facetRows ? toVacancyFacets(facetRows, filters, view) : undefined;
      return { value: { items, total, facets, form: new SerializedForm() }, viewIds: items.map((item) => item.id) };
    },
  });
  const { items, total, facets, form } = answer.value;
  const urlPattern = ctx.tenant.urlPattern;
  // Pagination links repeat the request's URL as it was spelled.
  const formKey = JSON.stringify([
    ctx.url.href,
    items.map((item) => liveUrl(item, answer.live?.get(item.id), urlPattern)),
  ]);
  return servedAnswer(ctx, { form, live: answer.live }, ZVacancyPage, formKey, () => {
    const page = paginate(withLiveFields(items, answer.live, urlPattern), total, input.page, input.per_page, ctx.url);
    return facets ? { ...page, facets } : page;
  });
}

export async function vacancyFacets(
  ctx: TVacancyReadContext,
  input: TVacancyFilterInput,
): Promise<TVacancyFacetsAnswer> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('vacancies.facets', ctx.tenant, input),
    compute: async (computation) => {
      const filters = await resolveFilters(ctx, computation, input);
      const rows = await facetCounts(ctx, computation, filters);
      const facets = {
        data: toVacancyFacets(rows, filters, viewOf(ctx, input.language)),
        meta: { total: facetTotal(rows) },
      };
      return { value: { facets, form: new SerializedForm() } };
    },
  });
  const { facets, form } = answer.value;
  return servedAnswer(ctx, { form, live: undefined }, ZVacancyFacetsAnswer, '', () => facets);
}

/** Shortest `q` that suggests anything. */
const MIN_SUGGEST_LENGTH = 2;
const DEFAULT_SUGGESTIONS = 5;

/** GET /vacancies/suggest: titles that `q` finds (as GET /vacancies?q= would), most common first. */
export async function vacancySuggestions(
  ctx: TVacancyReadContext,
  input: TVacancySuggestionsRequest,
): Promise<TVacancySuggestions> {
  const q = input.q;
  const limit = input.limit ?? DEFAULT_SUGGESTIONS;
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('vacancies.suggest', ctx.tenant, { q, language: input.language, limit }),
    compute: async (computation) => {
      if (q === undefined || [...q].length < MIN_SUGGEST_LENGTH)
        return { value: { data: [], form: new SerializedForm() } };
      const filters = await resolveFilters(ctx, computation, { q, language: input.language });
      return { value: { data: await findTitleSuggestions(ctx.db, filters, limit), form: new SerializedForm() } };
    },
  });
  const { data, form } = answer.value;
  return servedAnswer(ctx, { form, live: undefined }, ZVacancySuggestions, '', () => ({ data }));
}

/**
 * A visible vacancy by its publication slug (404 otherwise); counts a view, batched. With
 * `include_structured_data`, adds its schema.org JobPosting, made from the answer as shown (live URL included),
 * the facts cached with it (address, employment types) and the tenant as the request knows it.
 */
export async function getVacancy(
  ctx: TVacancyReadContext & { views: Pick<ViewCounter, 'record'> },
  input: TViewFlags & { slug: string; language?: string | undefined; include_structured_data?: boolean | undefined },
): Promise<TVacancyAnswer> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('vacancies.detail', ctx.tenant, input),
    viewCounts: 'vacancies',
    compute: async (computation) => {
      const row = await findVisibleVacancyBySlug(ctx.db, ctx.tenant.id, input.slug);
      if (!row) return { value: null };
      const [refs, facts] = await Promise.all([
        referencesFor(ctx, computation, [row]),
        input.include_structured_data ? findJobPostingFacts(ctx.db, row) : undefined,
      ]);
      const detail = toVacancyDetail(row, refs, viewOf(ctx, input.language, input));
      return { value: { detail, facts, form: new SerializedForm() }, viewIds: [row.id] };
    },
  });
  if (!answer.value) throw new AppError('NOT_FOUND');
  const { detail, facts, form } = answer.value;
  ctx.views.record('vacancies', detail.id);
  const urlPattern = ctx.tenant.urlPattern;
  const organization = facts ? { name: ctx.tenant.name, careerSiteDomain: ctx.tenant.careerSiteDomain } : undefined;
  const formKey = JSON.stringify([liveUrl(detail, answer.live?.get(detail.id), urlPattern), organization]);
  return servedAnswer(ctx, { form, live: answer.live }, ZVacancyAnswer, formKey, () => {
    const shown = withLiveFields([detail], answer.live, urlPattern)[0]!;
    return facts && organization
      ? { data: { ...shown, structured_data: toJobPosting(shown, facts, organization) } }
      : { data: shown };
  });
}
