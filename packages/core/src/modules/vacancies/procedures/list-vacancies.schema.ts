import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zFlag, zPagination, zSort, zSortDirection } from '../../../lib/query.ts';
import { ZVacancyFilterFields } from '../vacancy-filters.ts';
import { VACANCY_SORTS } from '../vacancy.repository.ts';
import { ZVacancyPage } from '../vacancy-answers.ts';

export const listVacanciesMeta = {
  openapi: {
    method: 'GET',
    path: '/vacancies',
    tags: ['Vacancies'],
    summary: 'List published vacancies',
    description:
      'Visible vacancies of the tenant (published, on the API channel, published_at ≤ now, not ended), paginated. ' +
      'Array filters are OR-ed within a parameter and AND-ed across parameters; a filter id that refers to nothing is 422 on its field. ' +
      '`include=facets` adds the facet counts of the same filters.',
    protect: true,
  },
  scope: 'vacancies:read',
  expensiveRead: 'misses',
} satisfies TMeta;

export const ZListVacanciesInput = z
  .object({
    ...zPagination,
    ...ZVacancyFilterFields,
    sort: zSort(VACANCY_SORTS)
      .optional()
      .describe(
        'Default `published_at`, or `relevance` with `q`. Text sorts compare lower-cased titles; ties are broken by id. ' +
          '(extension) `relevance` (only with `q`, else 422): title matches above body matches, exact words above prefixes and typos; ties by published_at, then id. ' +
          '(extension) `distance` (only with `near`, else 422): nearest first, ties by id',
      ),
    sort_direction: zSortDirection
      .optional()
      .describe('Default `desc` (newest, most relevant first); `asc` for sort=distance (nearest first)'),
    include: z
      .enum(['facets'], { error: 'The selected :attribute is invalid.' })
      .optional()
      .describe('`facets` adds top-level facet counts'),
    include_media: zFlag.describe('Adds header_image'),
    include_compensation: zFlag.describe('Adds compensation'),
    include_company_name: zFlag.describe('Adds company_location.company_name'),
    include_highlights: zFlag.describe(
      '(extension) Adds `highlights` {title, summary}: HTML-escaped text with the words `q` matched in `<mark>`',
    ),
  })
  .superRefine((input, ctx) => {
    if (input.sort === 'relevance' && input.q === undefined)
      ctx.addIssue({ code: 'custom', path: ['sort'], message: 'The selected :attribute is invalid.' });
    if (input.sort === 'distance' && input.near === undefined)
      ctx.addIssue({ code: 'custom', path: ['sort'], message: 'The selected :attribute is invalid.' });
  });
export type TListVacanciesInput = z.infer<typeof ZListVacanciesInput>;

export const ZListVacanciesOutput = ZVacancyPage;
export type TListVacanciesOutput = z.infer<typeof ZListVacanciesOutput>;
