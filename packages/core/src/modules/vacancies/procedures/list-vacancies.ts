import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { listVacancies } from '../vacancy.service.ts';
import { ZListVacanciesInput, ZListVacanciesOutput, listVacanciesMeta } from './list-vacancies.schema.ts';

export const listVacanciesProcedure = apiKeyProcedure()
  .meta(listVacanciesMeta)
  .input(ZListVacanciesInput)
  .output(ZListVacanciesOutput)
  .query(({ ctx, input }) => listVacancies(ctx, input));
