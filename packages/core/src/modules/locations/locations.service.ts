import type { TDb } from '../../db/kysely.ts';
import { AppError } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { isStorableText } from '../../lib/validation.ts';
import type { TTenantContext } from '../api-keys/api-key.verifier.ts';
import { contentKey, type ContentCache, type TContentReader } from '../content/content-cache.ts';
import { SerializedForm, servedAnswer, type TAnswerTransport } from '../content/serialized-answer.ts';
import { toLocationDto } from './location.dto.ts';
import {
  countVisibleVacancies,
  findLocationBySlug,
  findLocationsPage,
  type TLocationSort,
} from './locations.repository.ts';
import { ZGetLocationOutput, type TGetLocationOutput } from './location.schema.ts';
import { ZListLocationsOutput, type TListLocationsOutput } from './location.schema.ts';

/** What the location reads need from a request: its tenant-scoped database, tenant, content cache and URL. */
export type TLocationReadContext = TContentReader &
  TAnswerTransport & { db: TDb; tenant: TTenantContext; url: URL; services: { content: ContentCache } };

type TLocationView = { language?: string | undefined; include_coordinates: boolean; include_vacancy_count: boolean };

export type TListLocationsRequest = TLocationView & {
  page: number;
  per_page: number;
  country_code?: string | undefined;
  search?: string | undefined;
  sort: TLocationSort;
  sort_direction: 'asc' | 'desc';
};

/** How a request wants locations shown: country names in its language (else the tenant's), optional extras. */
async function dtoOptions(ctx: TLocationReadContext, view: TLocationView, locationIds: number[]) {
  const vacancyCounts = view.include_vacancy_count ? await countVisibleVacancies(ctx.db, locationIds) : undefined;
  return {
    language: view.language ?? ctx.tenant.defaultLanguage,
    includeCoordinates: view.include_coordinates,
    vacancyCounts,
  };
}

/** One page of the tenant's locations (cached as a whole). */
export async function listLocations(
  ctx: TLocationReadContext,
  input: TListLocationsRequest,
): Promise<TListLocationsOutput> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('locations.list', ctx.tenant, input),
    compute: async () => {
      const { rows, total } = await findLocationsPage(
        ctx.db,
        { countryCode: input.country_code, search: input.search },
        { sort: input.sort, direction: input.sort_direction },
        { page: input.page, perPage: input.per_page },
      );
      const options = await dtoOptions(
        ctx,
        input,
        rows.map((row) => row.id),
      );
      return { value: { items: rows.map((row) => toLocationDto(row, options)), total, form: new SerializedForm() } };
    },
  });
  const { items, total, form } = answer.value;
  // Pagination links repeat the request's URL as it was spelled.
  return servedAnswer(ctx, { form, live: undefined }, ZListLocationsOutput, ctx.url.href, () =>
    paginate(items, total, input.page, input.per_page, ctx.url),
  );
}

/** A location by its slug (404 when the tenant has none). */
export async function getLocation(
  ctx: TLocationReadContext,
  input: TLocationView & { slug: string },
): Promise<TGetLocationOutput> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('locations.detail', ctx.tenant, input),
    compute: async () => {
      // PostgreSQL text never holds NUL (it refuses it as a parameter), so such a slug names nothing.
      const row = isStorableText(input.slug) ? await findLocationBySlug(ctx.db, input.slug) : undefined;
      return {
        value: row
          ? { location: toLocationDto(row, await dtoOptions(ctx, input, [row.id])), form: new SerializedForm() }
          : null,
      };
    },
  });
  if (!answer.value) throw new AppError('NOT_FOUND');
  const { location, form } = answer.value;
  return servedAnswer(ctx, { form, live: undefined }, ZGetLocationOutput, '', () => ({ data: location }));
}
