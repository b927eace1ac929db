import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { servedOutput } from '../../content/serialized-answer.ts';
import { listLocations } from '../locations.service.ts';
import { listLocationsMeta } from './list-locations.schema.ts';
import { ZListLocationsInput, ZListLocationsOutput } from '../location.schema.ts';

export const listLocationsProcedure = apiKeyProcedure()
  .meta(listLocationsMeta)
  .input(ZListLocationsInput)
  .output(servedOutput(ZListLocationsOutput))
  .query(({ ctx, input }) => listLocations(ctx, input));
