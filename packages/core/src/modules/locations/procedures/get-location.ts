import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { toLocationDto } from '../location.dto.ts';
import { countVisibleVacancies, findLocationBySlug } from '../locations.repository.ts';
import { ZGetLocationInput, ZGetLocationOutput, getLocationMeta } from './get-location.schema.ts';

export const getLocationProcedure = apiKeyProcedure('locations:read')
  .meta(getLocationMeta)
  .input(ZGetLocationInput)
  .output(ZGetLocationOutput)
  .query(async ({ ctx, input }) => {
    // PostgreSQL text never holds NUL (it refuses it as a parameter), so such a slug names nothing.
    const row = input.slug.includes('\u0000') ? undefined : await findLocationBySlug(ctx.db, input.slug);
    if (!row) throw new AppError('NOT_FOUND');
    const vacancyCounts = input.include_vacancy_count ? await countVisibleVacancies(ctx.db, [row.id]) : undefined;
    const options = { language: input.language ?? ctx.tenant.defaultLanguage, includeCoordinates: input.include_coordinates, vacancyCounts };
    return { data: toLocationDto(row, options) };
  });
