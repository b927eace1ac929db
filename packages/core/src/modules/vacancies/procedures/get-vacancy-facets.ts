import { servedOutput } from '../../content/serialized-answer.ts';
import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { filterErrorsOf, vacancyFacets } from '../vacancy.service.ts';
import { ZGetVacancyFacetsInput, ZGetVacancyFacetsOutput, getVacancyFacetsMeta } from './get-vacancy-facets.schema.ts';

export const getVacancyFacetsProcedure = apiKeyProcedure()
  .meta(getVacancyFacetsMeta)
  // One 422 lists unknown filter ids with the query's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => filterErrorsOf(ctx, { rawInput: await getRawInput() })),
  )
  .input(ZGetVacancyFacetsInput)
  .output(servedOutput(ZGetVacancyFacetsOutput))
  .query(({ ctx, input }) => vacancyFacets(ctx, input));
