import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { contentKey } from '../../content/content-cache.ts';
import type { z } from 'zod';
import type { TDb } from '../../../db/kysely.ts';
import type { TTenantContext } from '../../api-keys/api-key.verifier.ts';
import { paginate } from '../../../lib/pagination.ts';
import { toLocationDto } from '../location.dto.ts';
import { countVisibleVacancies, findLocationsPage } from '../locations.repository.ts';
import { ZListLocationsInput, ZListLocationsOutput, listLocationsMeta } from './list-locations.schema.ts';

export const listLocationsProcedure = apiKeyProcedure()
  .meta(listLocationsMeta)
  .input(ZListLocationsInput)
  .output(ZListLocationsOutput)
  .query(async ({ ctx, input }) => {
    const answer = await ctx.services.content.read(ctx, {
      key: contentKey('locations.list', ctx.tenant, input),
      compute: async () => ({ value: await locationsPage(ctx, input) }),
    });
    return paginate(answer.value.items, answer.value.total, input.page, input.per_page, ctx.url);
  });

async function locationsPage(ctx: { db: TDb; tenant: TTenantContext }, input: z.output<typeof ZListLocationsInput>) {
  const { rows, total } = await findLocationsPage(
    ctx.db,
    { countryCode: input.country_code, search: input.search },
    { sort: input.sort, direction: input.sort_direction },
    { page: input.page, perPage: input.per_page },
  );
  const vacancyCounts = input.include_vacancy_count ? await countVisibleVacancies(ctx.db, rows.map((row) => row.id)) : undefined;
  const options = { language: input.language ?? ctx.tenant.defaultLanguage, includeCoordinates: input.include_coordinates, vacancyCounts };
  return { items: rows.map((row) => toLocationDto(row, options)), total };
}
