import { buildLargeDocument } from '@careers/core/operations';
import { LARGE_API_KEY } from '@careers/core/testing';
import type { TBenchEnvironment } from './harness.ts';
import { measure, type TBenchOptions, type TLoadScenario, type TScenarioResult } from './scenario.ts';

/** The read scenarios of the read-API issue, run with 32 connections against one tenant of 100 000 vacancies. */
const READ_CONNECTIONS = 32;
const VACANCIES = Number(process.env.BENCH_VACANCIES ?? 100_000);

type TFacetEntry = { id?: number; code?: string; count: number };

async function getJson(environment: TBenchEnvironment, path: string): Promise<any> {
  const response = await fetch(`${environment.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${LARGE_API_KEY}` },
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

/** Picks filter values from the data itself, so the filtered scenarios return real pages. */
async function pickFilters(environment: TBenchEnvironment) {
  const facets = (await getJson(environment, '/vacancies/facets')).data as Record<string, TFacetEntry[]>;
  const jobTypes = facets.job_types ?? [];
  const tags = (facets.tags ?? []).filter((tag) => tag.count > 2000);
  const locations = facets.locations ?? [];
  const detailPage = await getJson(environment, '/vacancies?per_page=100');
  return {
    jobTypes: jobTypes.slice(0, 2).map((entry) => entry.id),
    tag: tags[tags.length - 1]?.id ?? tags[0]?.id,
    location: locations[0]?.id,
    slugs: (detailPage.data as Array<{ slug: string }>).map((v) => v.slug),
  };
}

export const readsScenario: TLoadScenario = {
  description: `read endpoints (list, filtered list, search, facets, detail, locations) on ${VACANCIES} vacancies, ${READ_CONNECTIONS} connections`,
  document: () => buildLargeDocument({ vacancies: VACANCIES, seed: 42 }),
  run: async (environment, options: TBenchOptions): Promise<TScenarioResult[]> => {
    const filters = await pickFilters(environment);
    const jobTypes = filters.jobTypes.map((id) => `job_types[]=${id}`).join('&');
    const paths: Array<[string, string[]]> = [
      ['list', ['/v1/vacancies']],
      ['list-filtered-p5', [`/v1/vacancies?${jobTypes}&tags[]=${filters.tag}&sort=title&sort_direction=asc&page=5`]],
      ['search', ['/v1/vacancies?search=engineer', '/v1/vacancies?search=ontwikkel', '/v1/vacancies?search=data']],
      ['facets', ['/v1/vacancies/facets']],
      [
        'facets-filtered',
        [
          `/v1/vacancies/facets?location_id=${filters.location}&${jobTypes}`,
          `/v1/vacancies/facets?tags[]=${filters.tag}&language=en`,
        ],
      ],
      ['detail', filters.slugs.map((slug) => `/v1/vacancies/${slug}`)],
      [
        'locations-counts',
        ['/v1/locations?include_vacancy_count=true', '/v1/locations?include_vacancy_count=true&page=2'],
      ],
    ];
    const results: TScenarioResult[] = [];
    for (const [name, list] of paths) {
      // Warm up caches and the JIT for a moment, then measure.
      await measure(`${name} (warm-up)`, environment, {
        url: environment.baseUrl.replace(/\/v1$/, ''),
        connections: 4,
        duration: 2,
        requests: list.map((path) => ({ method: 'GET', path, headers: { authorization: `Bearer ${LARGE_API_KEY}` } })),
      });
      const result = await measure(name, environment, {
        url: environment.baseUrl.replace(/\/v1$/, ''),
        connections: READ_CONNECTIONS,
        duration: options.durationSeconds,
        requests: list.map((path) => ({ method: 'GET', path, headers: { authorization: `Bearer ${LARGE_API_KEY}` } })),
      });
      console.log(
        `  ${name.padEnd(20)} ${result.requestsPerSecond} req/s · p50 ${result.latencyP50Ms} ms · p99 ${result.latencyP99Ms} ms · peak RSS ${result.peakRssMb} MB · ${JSON.stringify(result.statuses)}`,
      );
      results.push(result);
    }
    return results;
  },
};
