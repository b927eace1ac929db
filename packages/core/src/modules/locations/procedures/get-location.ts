import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { contentKey } from '../../content/content-cache.ts';
import type { z } from 'zod';
import type { TDb } from '../../../db/kysely.ts';
import type { TTenantContext } from '../../api-keys/api-key.verifier.ts';
import { AppError } from '../../../lib/errors.ts';
import { toLocationDto } from '../location.dto.ts';
import { countVisibleVacancies, findLocationBySlug } from '../locations.repository.ts';
import { ZGetLocationInput, ZGetLocationOutput, getLocationMeta } from './get-location.schema.ts';
import { isStorableText } from '../../../lib/validation.ts';

export const getLocationProcedure = apiKeyProcedure()
  .meta(getLocationMeta)
  .input(ZGetLocationInput)
  .output(ZGetLocationOutput)
  .query(async ({ ctx, input }) => {
    const answer = await ctx.services.content.read(ctx, {
      key: contentKey('locations.detail', ctx.tenant, input),
      compute: async () => ({ value: await locationDetail(ctx, input) }),
    });
    if (!answer.value) throw new AppError('NOT_FOUND');
    return { data: answer.value };
  });

async function locationDetail(ctx: { db: TDb; tenant: TTenantContext }, input: z.output<typeof ZGetLocationInput>) {
  // PostgreSQL text never holds NUL (it refuses it as a parameter), so such a slug names nothing.
  const row = isStorableText(input.slug) ? await findLocationBySlug(ctx.db, input.slug) : undefined;
  if (!row) return null;
  const vacancyCounts = input.include_vacancy_count ? await countVisibleVacancies(ctx.db, [row.id]) : undefined;
  const options = { language: input.language ?? ctx.tenant.defaultLanguage, includeCoordinates: input.include_coordinates, vacancyCounts };
  return toLocationDto(row, options);
}
