import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { ZVacancyFilterFields } from '../vacancy-filters.ts';
import { ZVacancyFacetsAnswer } from '../vacancy-answers.ts';

export const getVacancyFacetsMeta = {
  openapi: {
    method: 'GET',
    path: '/vacancies/facets',
    tags: ['Vacancies'],
    summary: 'Facet counts of published vacancies',
    description:
      'Takes the filters of GET /vacancies (page and per_page are ignored) and counts the matching vacancies per location, department, ' +
      'job type, experience level, education level, tag (a main tag counts its sub-tags too) and language. ' +
      "For a group whose filter is not set, an entry's count equals `meta.total` of GET /vacancies filtered on that one value.",
    protect: true,
  },
  scope: 'vacancies:read',
  expensiveRead: 'misses',
} satisfies TMeta;

export const ZGetVacancyFacetsInput = z.object(ZVacancyFilterFields);
export type TGetVacancyFacetsInput = z.infer<typeof ZGetVacancyFacetsInput>;

export const ZGetVacancyFacetsOutput = ZVacancyFacetsAnswer;
export type TGetVacancyFacetsOutput = z.infer<typeof ZGetVacancyFacetsOutput>;
