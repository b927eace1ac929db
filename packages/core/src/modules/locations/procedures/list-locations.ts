import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { listLocations } from '../locations.service.ts';
import { ZListLocationsInput, ZListLocationsOutput, listLocationsMeta } from './list-locations.schema.ts';

export const listLocationsProcedure = apiKeyProcedure()
  .meta(listLocationsMeta)
  .input(ZListLocationsInput)
  .output(ZListLocationsOutput)
  .query(async ({ ctx, input }) => listLocations(ctx, input));
