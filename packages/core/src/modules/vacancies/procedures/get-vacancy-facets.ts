import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { vacancyFacets } from '../vacancy.service.ts';
import { ZGetVacancyFacetsInput, ZGetVacancyFacetsOutput, getVacancyFacetsMeta } from './get-vacancy-facets.schema.ts';

export const getVacancyFacetsProcedure = apiKeyProcedure()
  .meta(getVacancyFacetsMeta)
  .input(ZGetVacancyFacetsInput)
  .output(ZGetVacancyFacetsOutput)
  .query(({ ctx, input }) => vacancyFacets(ctx, input));
