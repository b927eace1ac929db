import { servedOutput } from '../../content/serialized-answer.ts';
import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { getVacancy } from '../vacancy.service.ts';
import { ZGetVacancyInput, ZGetVacancyOutput, getVacancyMeta } from './get-vacancy.schema.ts';

export const getVacancyProcedure = apiKeyProcedure()
  .meta(getVacancyMeta)
  .input(ZGetVacancyInput)
  .output(servedOutput(ZGetVacancyOutput))
  .query(({ ctx, input }) => getVacancy({ ...ctx, views: ctx.services.views }, input));
