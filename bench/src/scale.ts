import autocannon from 'autocannon';
import { missingBinaries, startCluster, startUnits, TENANT_KEY, type TCluster } from '@careers/cluster';
import type { TBenchOptions, TReportScenario } from './scenario.ts';

/**
 * Issue #17: requests per second of the read mix with 1, 2 and 3 API processes behind PgBouncer (transaction
 * pooling), with and without the streaming replica (DATABASE_READ_URL). autocannon spreads its connections over
 * the processes (client-side rotation); every request asks a question picked at random from a few thousand
 * (pages, filters, facets per location, details, locations), so most are content-cache misses — the work a
 * replica takes over (hits never leave the process; with the cache off, SCALE_CONTENT_CACHE_MB=0, nothing goes to
 * the replica at all).
 */
const VACANCIES = Number(process.env.SCALE_VACANCIES ?? 20_000);
const CONTENT_CACHE_MB = process.env.SCALE_CONTENT_CACHE_MB ?? '24';
const CONNECTIONS_PER_PROCESS = 8;
const PROCESS_COUNTS = [1, 2, 3];

type TRow = {
  replica: boolean;
  processes: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
};

/** The read mix: lists (paged, filtered, sorted, searched), facets (per location and language), details, locations. */
async function readMix(baseUrl: string): Promise<string[]> {
  const get = async (path: string) =>
    (await (await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${TENANT_KEY}` } })).json()) as any;
  const facets = (await get('/v1/vacancies/facets')).data as Record<string, Array<{ id: number }>>;
  const ids = (name: string) => (facets[name] ?? []).map((entry) => entry.id);
  const slugs: string[] = [];
  for (let page = 1; page <= 10; page++)
    slugs.push(
      ...((await get(`/v1/vacancies?per_page=100&page=${page}`)).data as Array<{ slug: string }>).map((v) => v.slug),
    );
  const pages = Array.from({ length: 100 }, (_, i) => i + 1);
  return [
    ...pages.flatMap((page) => [
      `/v1/vacancies?page=${page}`,
      `/v1/vacancies?page=${page}&sort=title&sort_direction=asc&per_page=10`,
    ]),
    ...ids('locations').flatMap((location) => [
      `/v1/vacancies?location_id=${location}`,
      `/v1/vacancies/facets?location_id=${location}`,
      `/v1/vacancies/facets?location_id=${location}&language=nl`,
    ]),
    ...ids('job_types').flatMap((jobType) =>
      ids('tags').map((tag) => `/v1/vacancies?job_types[]=${jobType}&tags[]=${tag}`),
    ),
    ...['engineer', 'data', 'manager', 'ontwikkel', 'nurse', 'sales'].map((term) => `/v1/vacancies?search=${term}`),
    ...slugs.map((slug) => `/v1/vacancies/${slug}`),
    ...[1, 2, 3, 4].flatMap((page) => [
      `/v1/locations?include_vacancy_count=true&page=${page}`,
      `/v1/locations?page=${page}`,
    ]),
  ];
}

async function measureConfiguration(cluster: TCluster, replica: boolean, options: TBenchOptions): Promise<TRow[]> {
  const rows: TRow[] = [];
  for (const processes of PROCESS_COUNTS) {
    const units = await startUnits(cluster, { apis: processes, workers: 0 }, { CONTENT_CACHE_MB, LOG_LEVEL: 'error' });
    try {
      const urls = units.apis.map((api) => `http://127.0.0.1:${api.port}`);
      const paths = await readMix(urls[0] as string);
      const headers = { authorization: `Bearer ${TENANT_KEY}` };
      const randomPath = () => paths[Math.floor(Math.random() * paths.length)] as string;
      const requests = [
        {
          method: 'GET' as const,
          path: '/v1/vacancies',
          headers,
          setupRequest: (request: any) => ({ ...request, path: randomPath() }),
        },
      ];
      // autocannon takes several targets (typed as one): its connections go round-robin over them.
      const target = (seconds: number, connections: number) => ({
        url: urls as unknown as string,
        connections,
        duration: seconds,
        requests,
      });
      await autocannon(target(3, 2 * processes));
      const result = await autocannon(target(options.durationSeconds, CONNECTIONS_PER_PROCESS * processes));
      const row: TRow = {
        replica,
        processes,
        requestsPerSecond: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      };
      console.log(
        `  replica ${replica ? 'yes' : 'no '} · ${processes} API process(es): ${row.requestsPerSecond} req/s · p50 ${row.p50} ms · p99 ${row.p99} ms · non-2xx ${row.non2xx} · errors ${row.errors}`,
      );
      rows.push(row);
    } finally {
      await units.stop();
    }
  }
  return rows;
}

export const scaleScenario: TReportScenario = {
  description: `random read mix (mostly cache misses) on ${VACANCIES} vacancies through PgBouncer (transaction pooling): 1, 2, 3 API processes, with and without a streaming replica; content cache ${CONTENT_CACHE_MB} MB`,
  report: async (options) => {
    const missing = missingBinaries();
    if (missing) {
      console.log(`  skipped: ${missing}`);
      return;
    }
    const rows: TRow[] = [];
    for (const replica of [false, true]) {
      const cluster = await startCluster({ vacancies: VACANCIES, replica });
      try {
        rows.push(...(await measureConfiguration(cluster, replica, options)));
      } finally {
        await cluster.stop();
      }
    }
    console.log(
      '\n| replica | API processes | req/s | p50 ms | p99 ms | non-2xx | errors |\n|---|---|---|---|---|---|---|',
    );
    for (const r of rows)
      console.log(
        `| ${r.replica ? 'yes' : 'no'} | ${r.processes} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`,
      );
  },
};
