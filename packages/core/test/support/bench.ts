/**
 * `@careers/core/bench`: what the benchmarks use of the product — the generated large tenant, the import, and the
 * formatting and body checks the hand-written reference server (bench/src/reference) shares with the API, so both
 * answer byte for byte alike and the comparison measures the stack and data access alone.
 */
export { buildLargeDocument, LARGE_API_KEY } from '../../src/demo/large-tenant.ts';
export { AppError, type TFieldErrors } from '../../src/lib/errors.ts';
export { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../src/lib/json-body.ts';
export { paginate } from '../../src/lib/pagination.ts';
export type { TScope } from '../../src/lib/scopes.ts';
export { hashApiKey } from '../../src/modules/api-keys/api-key.crypto.ts';
export { checkAnswers } from '../../src/modules/applications/application-answers.ts';
export { toApplicationResponse } from '../../src/modules/applications/application.dto.ts';
export type { TNewDocument } from '../../src/modules/applications/application.repository.ts';
export { decodeBase64Strict } from '../../src/modules/applications/base64.ts';
export { toArticleDto } from '../../src/modules/articles/article.dto.ts';
export { requestHash } from '../../src/modules/idempotency/request-hash.ts';
export { toLocationDto } from '../../src/modules/locations/location.dto.ts';
export { importTenantDocument } from '../../src/modules/tenants/import/tenant-import.service.ts';
export type { TVacancyFilters } from '../../src/modules/vacancies/vacancy-filters.ts';
export {
  toVacancyDetail,
  toVacancyFacets,
  toVacancyListItem,
  type TVacancyView,
} from '../../src/modules/vacancies/vacancy.dto.ts';
export type {
  TTaxonomyRef,
  TVacancyBaseDetailRow,
  TVacancyReferences,
} from '../../src/modules/vacancies/vacancy.repository.ts';
export type { TFacetCountRow } from '../../src/modules/vacancies/vacancy-facets.repository.ts';
export * from './search-judgements.ts';
export { seededRandom, type TRandom } from '../../src/demo/random.ts';
