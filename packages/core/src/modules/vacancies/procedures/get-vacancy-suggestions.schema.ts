import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zIntInRange, zLanguage, zSearch } from '../../../lib/query.ts';
import { ZVacancySuggestions } from '../vacancy-answers.ts';

export const getVacancySuggestionsMeta = {
  openapi: {
    method: 'GET',
    path: '/vacancies/suggest',
    tags: ['Vacancies'],
    summary: 'Suggest vacancy titles as the visitor types',
    description:
      'Distinct titles of visible vacancies that the same `q` finds on GET /vacancies (the last word as a prefix), with how many vacancies carry ' +
      'each, by count (descending), then title. A `q` shorter than 2 characters suggests nothing.',
    protect: true,
  },
  scope: 'vacancies:read',
  expensiveRead: 'misses',
  extension: true,
} satisfies TMeta;

export const ZGetVacancySuggestionsInput = z.object({
  q: zSearch.optional().describe('What the visitor typed so far (at most 255 characters)'),
  language: zLanguage.optional().describe('Only vacancies in this language (2 letters)'),
  limit: zIntInRange(1, 10).optional().describe('How many suggestions (1–10, default 5)'),
});
export type TGetVacancySuggestionsInput = z.infer<typeof ZGetVacancySuggestionsInput>;

export const ZGetVacancySuggestionsOutput = ZVacancySuggestions;
export type TGetVacancySuggestionsOutput = z.infer<typeof ZGetVacancySuggestionsOutput>;
