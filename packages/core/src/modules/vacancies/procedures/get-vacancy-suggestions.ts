import { servedOutput } from '../../content/serialized-answer.ts';
import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { vacancySuggestions } from '../vacancy.service.ts';
import {
  ZGetVacancySuggestionsInput,
  ZGetVacancySuggestionsOutput,
  getVacancySuggestionsMeta,
} from './get-vacancy-suggestions.schema.ts';

export const getVacancySuggestionsProcedure = apiKeyProcedure()
  .meta(getVacancySuggestionsMeta)
  .input(ZGetVacancySuggestionsInput)
  .output(servedOutput(ZGetVacancySuggestionsOutput))
  .query(({ ctx, input }) => vacancySuggestions(ctx, input));
