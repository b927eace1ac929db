import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { servedOutput } from '../../content/serialized-answer.ts';
import { listLocations } from '../locations.service.ts';
import { ZListLocationsInput, ZListLocationsOutput, listLocationsMeta } from './list-locations.schema.ts';

export const listLocationsProcedure = apiKeyProcedure()
  .meta(listLocationsMeta)
  .input(ZListLocationsInput)
  .output(servedOutput(ZListLocationsOutput))
  .query(({ ctx, input }) => listLocations(ctx, input));
