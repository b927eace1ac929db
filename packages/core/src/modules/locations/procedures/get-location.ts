import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { servedOutput } from '../../content/serialized-answer.ts';
import { getLocation } from '../locations.service.ts';
import { getLocationMeta } from './get-location.schema.ts';
import { ZGetLocationInput, ZGetLocationOutput } from '../location.schema.ts';

export const getLocationProcedure = apiKeyProcedure()
  .meta(getLocationMeta)
  .input(ZGetLocationInput)
  .output(servedOutput(ZGetLocationOutput))
  .query(({ ctx, input }) => getLocation(ctx, input));
