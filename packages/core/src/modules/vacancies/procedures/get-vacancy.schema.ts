import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zFlag, zLanguage } from '../../../lib/query.ts';
import { ZVacancyAnswer } from '../vacancy-answers.ts';

export const getVacancyMeta = {
  openapi: {
    method: 'GET',
    path: '/vacancies/{slug}',
    tags: ['Vacancies'],
    summary: 'Get a published vacancy',
    description:
      'The complete vacancy (with description, requirements and offer) by its publication slug. Counts a view (batched, at most a second late). ' +
      'An unknown, unpublished, expired or non-API vacancy is 404. ' +
      'With include_structured_data, `structured_data` is the vacancy as a schema.org JobPosting for Google for Jobs (JSON-LD to embed in the ' +
      "vacancy's page): employment types from the job types, the address of its location, the salary only with include_compensation.",
    protect: true,
  },
  scope: 'vacancies:read',
  expensiveRead: 'misses',
  errors: ['NOT_FOUND'],
} satisfies TMeta;

export const ZGetVacancyInput = z.object({
  slug: z.string().describe('The publication slug'),
  language: zLanguage.optional().describe('Language of the labels (2 letters)'),
  include_media: zFlag.describe('Adds header_image'),
  include_compensation: zFlag.describe('Adds compensation'),
  include_company_name: zFlag.describe('Adds company_location.company_name'),
  include_structured_data: zFlag.describe(
    'Adds structured_data: the vacancy as a schema.org JobPosting (JSON-LD) for Google for Jobs',
  ),
});
export type TGetVacancyInput = z.infer<typeof ZGetVacancyInput>;

export const ZGetVacancyOutput = ZVacancyAnswer;
export type TGetVacancyOutput = z.infer<typeof ZGetVacancyOutput>;
