import { router } from '../../trpc/init.ts';
import { listVacanciesProcedure } from './procedures/list-vacancies.ts';
import { getVacancyFacetsProcedure } from './procedures/get-vacancy-facets.ts';
import { getVacancyProcedure } from './procedures/get-vacancy.ts';
import { reportCanonicalUrlProcedure } from './procedures/report-canonical-url.ts';
import { getApplicationFormProcedure } from './procedures/get-application-form.ts';
import { getVacancySuggestionsProcedure } from './procedures/get-vacancy-suggestions.ts';

export const vacanciesRouter = router({
  list: listVacanciesProcedure,
  facets: getVacancyFacetsProcedure,
  suggest: getVacancySuggestionsProcedure,
  get: getVacancyProcedure,
  reportCanonicalUrl: reportCanonicalUrlProcedure,
  applicationForm: getApplicationFormProcedure,
});
