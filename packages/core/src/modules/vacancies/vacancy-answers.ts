import { z } from 'zod';
import { zPage } from '../../lib/pagination.ts';
import { ZVacancyDetail, ZVacancyFacets, ZVacancyListItem } from './vacancy.dto.ts';

/*
 * What the vacancy reads answer, as the service builds them. Each procedure's schema file declares its output as one
 * of these, so the service stands on this file and never on a procedure's.
 */

/** GET /vacancies: a page of vacancies, with the facets when asked. */
export const ZVacancyPage = zPage(ZVacancyListItem).extend({
  facets: ZVacancyFacets.optional().describe('Only with include=facets'),
});
export type TVacancyPage = z.infer<typeof ZVacancyPage>;

/** GET /vacancies/facets: the facet counts of the matching vacancies, and how many match. */
export const ZVacancyFacetsAnswer = z.object({
  data: ZVacancyFacets,
  meta: z.object({ total: z.number().int().describe('Number of matching vacancies') }),
});
export type TVacancyFacetsAnswer = z.infer<typeof ZVacancyFacetsAnswer>;

/** GET /vacancies/suggest: titles, most common first. */
export const ZVacancySuggestions = z.object({
  data: z.array(
    z.object({
      text: z.string().describe('A vacancy title'),
      count: z.number().int().describe('Visible vacancies with this title that q finds'),
    }),
  ),
});
export type TVacancySuggestions = z.infer<typeof ZVacancySuggestions>;

/** What GET /vacancies/suggest asks for. */
export type TVacancySuggestionsRequest = {
  q?: string | undefined;
  language?: string | undefined;
  limit?: number | undefined;
};

/** GET /vacancies/{slug}: one vacancy. */
export const ZVacancyAnswer = z.object({ data: ZVacancyDetail });
export type TVacancyAnswer = z.infer<typeof ZVacancyAnswer>;
