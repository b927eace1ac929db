import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { getLocation } from '../locations.service.ts';
import { ZGetLocationInput, ZGetLocationOutput, getLocationMeta } from './get-location.schema.ts';

export const getLocationProcedure = apiKeyProcedure()
  .meta(getLocationMeta)
  .input(ZGetLocationInput)
  .output(ZGetLocationOutput)
  .query(async ({ ctx, input }) => ({ data: await getLocation(ctx, input) }));
