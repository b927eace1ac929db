import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildLargeDocument, LARGE_API_KEY } from '@careers/core/bench';

/**
 * What the comparison scenarios ask (the API and the reference get the same requests, unless a scenario names what
 * the reference is asked instead), and the budgets of issue #12 they are held to. Shared by `pnpm bench compare` and
 * the test that the two answer alike.
 */

export type TBenchRequest = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };

export type TComparison = {
  name: string;
  /** The least the API must reach, as a multiple of the reference's requests per second. */
  minRatio: number;
  /** The most the API's p99 may be (cached reads). */
  maxP99Ms?: number;
  /** The n-th request of the run, counted over every connection. */
  request: (n: number) => TBenchRequest;
  /** The n-th request of the warm-up; by default the same as the run's. */
  warmUp?: (n: number) => TBenchRequest;
  /**
   * What the references are asked instead of `request`, when they do not know the API's request: the nearest thing
   * they do (for `q`, the substring `search` for the same words). Warm-up and run alike; by default `request`.
   */
  referenceRequest?: (n: number) => TBenchRequest;
  /** How many distinct requests the scenario has (the test asks each of at most a few of them). */
  distinct: number;
};

/** Values picked from the imported data, so every filtered request returns real rows. */
export type TBenchData = {
  jobTypes: number[];
  tag: number;
  location: number;
  /** Visible vacancies the detail scenario cycles through. */
  slugs: string[];
  /** Other visible vacancies in a shuffled order: the cache has not seen them. */
  unseen: string[];
  /** A visible vacancy that accepts applications. */
  applyTo: string;
};

const DETAIL_SLUGS = 1_000;
/** Enough keys that none reaches the 10-per-minute limit of POST /applications during a run of both servers. */
export const APPLICATION_KEYS = 4_000;
const applicationKey = (index: number) => `ck_bench_${String(index).padStart(8, '0')}_applications`;
const RESUME_BYTES = 50 * 1024;

/** The generated tenant (bench/src/reads.ts's) with keys that may only apply. */
export function benchDocument(vacancies: number, applicationKeys = APPLICATION_KEYS) {
  const document = buildLargeDocument({ vacancies, seed: 42 });
  const tenant = document.tenants[0]!;
  const base = 2_000_000;
  tenant.api_keys = [
    ...(tenant.api_keys ?? []),
    ...Array.from({ length: applicationKeys }, (_, index) => ({
      id: base + index,
      name: `applications ${index}`,
      key: applicationKey(index),
      scopes: ['applications:write'],
    })),
  ];
  return document;
}

const VISIBLE = `status = 'published' and 'api' = any(channels) and published_at <= now() and (ends_at is null or ends_at > now())`;

/** Reads the filter values and slugs from the database (not through the API, whose cache must stay cold). */
export async function readBenchData(databaseUrl: string): Promise<TBenchData> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const one = async (sql: string) => (await client.query(sql)).rows;
    const jobTypes = await one(
      `select x.job_type_id as id from vacancy_job_types x join vacancies v on v.id = x.vacancy_id where ${VISIBLE} group by 1 order by count(*) desc, 1 limit 2`,
    );
    const tag = await one(
      `select x.tag_id as id from vacancy_tags x join tags t on t.id = x.tag_id where t.parent_id is null group by 1 order by count(*) desc, 1 limit 1`,
    );
    const location = await one(
      `select location_id as id from vacancies where ${VISIBLE} and location_id is not null group by 1 order by count(*) desc, 1 limit 1`,
    );
    // md5 of the slug: a shuffled order that is the same on every run.
    const slugs = (await one(`select slug from vacancies where ${VISIBLE} order by md5(slug)`)).map(
      (row) => row.slug as string,
    );
    const applyTo = await one(
      `select slug from vacancies where ${VISIBLE} and accepts_applications order by id limit 1`,
    );
    return {
      jobTypes: jobTypes.map((row) => row.id),
      tag: tag[0].id,
      location: location[0].id,
      slugs: slugs.slice(0, DETAIL_SLUGS),
      unseen: slugs.slice(DETAIL_SLUGS),
      applyTo: applyTo[0].slug,
    };
  } finally {
    await client.end();
  }
}

const read = (path: string): TBenchRequest => ({
  method: 'GET',
  path,
  headers: { authorization: `Bearer ${LARGE_API_KEY}` },
});
const cycling = (paths: string[]) => ({
  request: (n: number) => read(paths[n % paths.length]!),
  distinct: paths.length,
});

/** The words of the `search` scenario; the `q` scenario asks for the same ones. */
const SEARCH_WORDS = ['engineer', 'ontwikkel', 'data'];

/** A POST /applications body around its email: each request costs a concatenation, not a JSON.stringify of 68 kB. */
function applicationBody(vacancy: string): (n: number) => TBenchRequest {
  const resume = randomBytes(RESUME_BYTES).toString('base64');
  const [head, tail] = JSON.stringify({
    vacancy,
    candidate: { given_name: 'Bench', family_name: 'Mark', email: '@@EMAIL@@' },
    documents: { resume: { filename: 'resume.pdf', content: resume, mime_type: 'application/pdf' } },
    privacy_policy_accepted: true,
    tracking: {
      ip_address: '198.51.100.7',
      user_agent: 'autocannon',
      referrer: 'https://careers.bench.example/jobs/bench',
    },
  }).split('@@EMAIL@@') as [string, string];
  // Unique per process run, so a second run on the same database never replays the first one's answers.
  const run = randomBytes(4).toString('hex');
  return (n) => ({
    method: 'POST',
    path: '/v1/applications',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${applicationKey(n % APPLICATION_KEYS)}`,
      'idempotency-key': `bench-${run}-${n}`,
    },
    body: `${head}candidate.${run}.${n}@bench.example${tail}`,
  });
}

/** The scenarios of the ratio table, in the order they run (detail before detail-unseen, writes last). */
export function comparisons(data: TBenchData): TComparison[] {
  const jobTypes = data.jobTypes.map((id) => `job_types[]=${id}`).join('&');
  const cached = { minRatio: 10, maxP99Ms: 50 };
  const unseen = data.unseen.length > 0 ? data.unseen : data.slugs;
  return [
    { name: 'list', ...cached, ...cycling(['/v1/vacancies?per_page=20']) },
    {
      name: 'list-filtered-p5',
      ...cached,
      ...cycling([`/v1/vacancies?${jobTypes}&tags[]=${data.tag}&sort=title&sort_direction=asc&page=5&per_page=100`]),
    },
    {
      name: 'facets-filtered',
      ...cached,
      ...cycling([`/v1/vacancies/facets?location_id=${data.location}&tags[]=${data.tag}`]),
    },
    { name: 'facets', ...cached, ...cycling(['/v1/vacancies/facets']) },
    { name: 'search', ...cached, ...cycling(SEARCH_WORDS.map((word) => `/v1/vacancies?search=${word}`)) },
    {
      // The relevance search, cached. The references know no `q`: they answer `search=<word>` (a substring filter, a
      // smaller piece of work than `q`'s stemming, typos and ranking), so the ratio is q on the API against search there.
      name: 'q',
      ...cached,
      ...cycling(SEARCH_WORDS.map((word) => `/v1/vacancies?q=${word}`)),
      referenceRequest: cycling(SEARCH_WORDS.map((word) => `/v1/vacancies?search=${word}`)).request,
    },
    {
      name: 'locations',
      ...cached,
      ...cycling(['/v1/locations?include_vacancy_count=true', '/v1/locations?include_vacancy_count=true&page=2']),
    },
    { name: 'detail', minRatio: 1.5, maxP99Ms: 50, ...cycling(data.slugs.map((slug) => `/v1/vacancies/${slug}`)) },
    {
      name: 'detail-unseen',
      minRatio: 1,
      request: (n) => read(`/v1/vacancies/${unseen[n % unseen.length]}`),
      // Warmed up on the seen slugs, so the measured ones stay unseen.
      warmUp: (n) => read(`/v1/vacancies/${data.slugs[n % data.slugs.length]}`),
      distinct: unseen.length,
    },
    { name: 'articles', minRatio: 1, ...cycling(['/v1/articles?language=en']) },
    {
      name: 'post-applications',
      minRatio: 1,
      request: applicationBody(data.applyTo),
      distinct: Number.POSITIVE_INFINITY,
    },
  ];
}

/** The names of the comparison scenarios, in order (they do not depend on the data). */
export const COMPARISON_NAMES = comparisons({
  jobTypes: [],
  tag: 0,
  location: 0,
  slugs: [''],
  unseen: [],
  applyTo: '',
}).map((comparison) => comparison.name);
