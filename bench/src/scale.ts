import autocannon from 'autocannon';
import { startCluster, startUnits, TENANT_KEY, type TCluster } from '@careers/cluster/cluster.ts';
import { missingBinaries } from '@careers/cluster/binaries.ts';
import type { TBenchOptions, TReportScenario } from './scenario.ts';

/**
 * Issue #17: requests per second of the read mix with 1, 2 and 3 API processes behind PgBouncer (transaction
 * pooling), with and without the streaming replica (DATABASE_READ_URL). autocannon spreads its connections over
 * the processes (client-side rotation). The content cache is off by default (SCALE_CONTENT_CACHE_MB=0): every read
 * reaches the database, which is the work a replica takes over; with the cache on, most reads never leave the
 * process and the database matters little.
 */
const VACANCIES = Number(process.env.SCALE_VACANCIES ?? 20_000);
const CONTENT_CACHE_MB = process.env.SCALE_CONTENT_CACHE_MB ?? '0';
const CONNECTIONS_PER_PROCESS = 8;
const PROCESS_COUNTS = [1, 2, 3];

type TRow = { replica: boolean; processes: number; requestsPerSecond: number; p50: number; p99: number; non2xx: number; errors: number };

/** The read mix: lists (plain, paged, filtered, sorted, searched), facets, details and locations with counts. */
async function readMix(baseUrl: string): Promise<string[]> {
  const get = async (path: string) => (await (await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${TENANT_KEY}` } })).json()) as any;
  const facets = (await get('/v1/vacancies/facets')).data as Record<string, Array<{ id: number }>>;
  const slugs = ((await get('/v1/vacancies?per_page=20&page=3')).data as Array<{ slug: string }>).map((v) => v.slug);
  const [jobType, tag, location] = [facets.job_types?.[0]?.id, facets.tags?.[5]?.id, facets.locations?.[0]?.id];
  return [
    '/v1/vacancies',
    ...[2, 5, 9].map((page) => `/v1/vacancies?page=${page}`),
    `/v1/vacancies?job_types[]=${jobType}&tags[]=${tag}&sort=title&sort_direction=asc`,
    `/v1/vacancies?location_id=${location}&language=nl`,
    '/v1/vacancies?search=engineer',
    '/v1/vacancies/facets',
    `/v1/vacancies/facets?location_id=${location}`,
    `/v1/vacancies/facets?tags[]=${tag}&language=en`,
    ...slugs.map((slug) => `/v1/vacancies/${slug}`),
    '/v1/locations?include_vacancy_count=true',
    '/v1/locations?include_vacancy_count=true&page=2',
  ];
}

async function measureConfiguration(cluster: TCluster, replica: boolean, options: TBenchOptions): Promise<TRow[]> {
  const rows: TRow[] = [];
  for (const processes of PROCESS_COUNTS) {
    const units = await startUnits(cluster, { apis: processes, workers: 0 }, { CONTENT_CACHE_MB, LOG_LEVEL: 'error' });
    try {
      const urls = units.apis.map((api) => `http://127.0.0.1:${api.port}`);
      const paths = await readMix(urls[0] as string);
      const requests = paths.map((path) => ({ method: 'GET' as const, path, headers: { authorization: `Bearer ${TENANT_KEY}` } }));
      // autocannon takes several targets (typed as one): its connections go round-robin over them.
      const target = (seconds: number, connections: number) => ({ url: urls as unknown as string, connections, duration: seconds, requests });
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
      console.log(`  replica ${replica ? 'yes' : 'no '} · ${processes} API process(es): ${row.requestsPerSecond} req/s · p50 ${row.p50} ms · p99 ${row.p99} ms · non-2xx ${row.non2xx} · errors ${row.errors}`);
      rows.push(row);
    } finally {
      await units.stop();
    }
  }
  return rows;
}

export const scaleScenario: TReportScenario = {
  description: `read mix on ${VACANCIES} vacancies through PgBouncer (transaction pooling): 1, 2, 3 API processes, with and without a streaming replica; content cache ${CONTENT_CACHE_MB} MB`,
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
    console.log('\n| replica | API processes | req/s | p50 ms | p99 ms | non-2xx | errors |\n|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.replica ? 'yes' : 'no'} | ${r.processes} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`);
  },
};
