import autocannon from 'autocannon';
import pg from 'pg';
import { LARGE_API_KEY, seededRandom } from '@careers/core/bench';
import { benchDocument } from './compare/requests.ts';
import { measure, type TBenchOptions, type TLoadScenario } from './scenario.ts';

/**
 * `q` the way visitors use it: many different queries, each asked once, so (almost) every answer is computed rather
 * than served from the cache. The queries are made from the tenant's own words (titles, cities, departments): whole
 * words, typos, prefixes as typed, and two-word combinations; the same set on every run.
 */
const QUERIES = 1_000;
const WARM_UP_QUERIES = 100;
const SEED = 30;

const vacanciesOf = (options: TBenchOptions) => options.vacancies ?? (options.quick ? 10_000 : 100_000);

/** One letter left out in the middle: a typo the search tolerates for words of 5 letters or more. */
const typo = (word: string) => word.slice(0, Math.floor(word.length / 2)) + word.slice(Math.floor(word.length / 2) + 1);

/** The words visitors would type, read from the database (the API's cache must stay cold). */
async function vocabulary(
  databaseUrl: string,
): Promise<{ titleWords: string[]; places: string[]; departments: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const words = async (sql: string) => (await client.query(sql)).rows.map((row) => row.word as string);
    return {
      titleWords: await words(
        `select distinct lower(w) as word from (select distinct title from vacancies) t, regexp_split_to_table(t.title, '[^[:alpha:]]+') w where length(w) >= 3 order by 1`,
      ),
      places: await words(
        `select distinct lower(locality) as word from locations where locality is not null order by 1`,
      ),
      departments: await words(
        `select distinct lower(name->>'en') as word from departments where name->>'en' is not null order by 1`,
      ),
    };
  } finally {
    await client.end();
  }
}

/** A third of the queries are one word (whole, with a typo, or a prefix as typed); the rest two. */
const ONE_WORD_SHARE = 1 / 3;

function shuffled<T>(items: Iterable<T>, random: () => number): T[] {
  const all = [...items];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

/** `count` distinct queries in a fixed shuffled order (the measured ones are taken first, the warm-up's after them). */
export function unseenQueries(
  words: { titleWords: string[]; places: string[]; departments: string[] },
  count: number,
): string[] {
  const { titleWords, places, departments } = words;
  const oneWord = new Set<string>();
  for (const word of [...titleWords, ...departments]) {
    oneWord.add(word);
    if (word.length >= 5) oneWord.add(typo(word));
    if (word.length >= 5) oneWord.add(word.slice(0, 3 + (word.length % 3)));
  }
  const twoWords = new Set<string>();
  for (const word of titleWords) {
    for (const place of places) twoWords.add(`${word} ${place}`);
    for (const other of titleWords)
      if (other !== word && other.length >= 5) twoWords.add(`${word} ${other.slice(0, 4)}`);
  }
  for (const department of departments) for (const place of places) twoWords.add(`${department} ${place}`);
  for (const query of oneWord) twoWords.delete(query);
  const random = seededRandom(SEED).next;
  const ones = shuffled(oneWord, random).slice(0, Math.round(count * ONE_WORD_SHARE));
  const twos = shuffled(twoWords, random).slice(0, count - ones.length);
  if (ones.length + twos.length < count)
    throw new Error(`only ${ones.length + twos.length} distinct queries from the tenant's words, ${count} wanted`);
  return shuffled([...ones, ...twos], random);
}

const path = (q: string) => `/v1/vacancies?q=${encodeURIComponent(q)}`;

/** autocannon asking each query exactly once, in order, over every connection. */
function once(baseUrl: string, queries: string[], connections: number): autocannon.Options {
  let n = 0;
  const headers = { authorization: `Bearer ${LARGE_API_KEY}` };
  return {
    url: baseUrl.replace(/\/v1$/, ''),
    connections,
    amount: queries.length,
    requests: [
      {
        method: 'GET',
        path: path(queries[0]!),
        headers,
        setupRequest: (request) => ({ ...request, path: path(queries[n++ % queries.length]!) }),
      },
    ],
  };
}

export const qUnseenScenario: TLoadScenario = {
  description: `${QUERIES} distinct q queries, each asked once (cache misses), over the generated tenant (100 000 vacancies; --vacancies N); p50 and p99`,
  document: (options) => benchDocument(vacanciesOf(options), 0),
  run: async (environment, options) => {
    const queries = unseenQueries(await vocabulary(environment.databaseUrl), QUERIES + WARM_UP_QUERIES);
    // The warm-up (JIT, pools, the database's buffers) uses queries the run never asks.
    await measure(
      'q-unseen (warm-up)',
      environment,
      once(environment.baseUrl, queries.slice(QUERIES), Math.min(4, options.connections)),
    );
    const measured = queries.slice(0, QUERIES);
    const result = await measure(
      'q-unseen',
      { ...environment, pid: environment.apiPid },
      once(environment.baseUrl, measured, options.connections),
    );
    const twoWords = measured.filter((q) => q.includes(' ')).length;
    return {
      ...result,
      notes: `${measured.length} distinct queries (${twoWords} of two words, ${measured.length - twoWords} of one), each asked once, e.g. ${measured
        .slice(0, 4)
        .map((q) => JSON.stringify(q))
        .join(', ')}`,
    };
  },
};
