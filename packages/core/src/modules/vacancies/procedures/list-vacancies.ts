import { servedOutput } from '../../content/serialized-answer.ts';
import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { filterErrorsOf, listVacancies } from '../vacancy.service.ts';
import { ZListVacanciesInput, ZListVacanciesOutput, listVacanciesMeta } from './list-vacancies.schema.ts';

export const listVacanciesProcedure = apiKeyProcedure()
  .meta(listVacanciesMeta)
  // One 422 lists unknown filter ids with the query's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => filterErrorsOf(ctx, { rawInput: await getRawInput() })),
  )
  .input(ZListVacanciesInput)
  .output(servedOutput(ZListVacanciesOutput))
  .query(({ ctx, input }) => listVacancies(ctx, input));
