import type { TMeta } from '../../operation-meta.ts';

export const getApplicationFormMeta = {
  openapi: {
    method: 'GET',
    path: '/vacancies/{slug}/application-form',
    tags: ['Vacancies'],
    summary: 'Get the application form of a vacancy',
    description:
      'Extension: what POST /applications takes for this vacancy. First the standard fields (`candidate.given_name`, `candidate.family_name`, ' +
      '`candidate.email` required; `candidate.mobile_phone`, `candidate.fixed_phone`, `candidate.linkedin_url`, `documents.resume`, ' +
      "`documents.cover_letter`, `privacy_policy_accepted`), then the vacancy's questions, answered in `answers` by `key`. Labels are in `language`, " +
      "else the tenant's default language, else the alphabetically first one. An unknown, unpublished, expired or non-API vacancy is 404.",
    protect: true,
  },
  scope: 'vacancies:read',
  expensiveRead: 'misses',
  errors: ['NOT_FOUND'],
  extension: true,
} satisfies TMeta;
