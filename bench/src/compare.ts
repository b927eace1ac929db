import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { startReferenceProcess, type TBenchEnvironment, type TReferenceProcess } from './harness.ts';
import { startSharedReference } from './shared-reference.ts';
import { measure, type TBenchOptions, type TLoadScenario, type TScenarioResult } from './scenario.ts';
import {
  benchDocument,
  COMPARISON_NAMES,
  comparisons,
  readBenchData,
  type TBenchRequest,
  type TComparison,
} from './compare/requests.ts';
import { newestProfile, summariseProfile } from './profile-summary.ts';

/**
 * The yardstick: every scenario against the API and against the hand-tuned reference of `../shared/reference-server`
 * (node:http + pg, no cache, its own schema loaded from the same tenant document on the same PostgreSQL) in the same
 * run, so every figure is a ratio; then the budgets, which count against that reference only. `--own-reference` also
 * measures our own reference (bench/src/reference, which renders with the product's DTO mappers) beside it.
 */
const CONNECTIONS = 32;
const WARM_UP_SECONDS = 2;
const MAX_API_RSS_MB = 300;
const QUIET_TIMEOUT_MS = 60_000;

const vacanciesOf = (options: TBenchOptions) => options.vacancies ?? (options.quick ? 10_000 : 100_000);

type TTarget = Parameters<typeof measure>[1] & { baseUrl: string };
type TRow = {
  comparison: TComparison;
  api: TScenarioResult;
  reference: TScenarioResult;
  ratio: number;
  own?: TScenarioResult;
};

/** autocannon with the scenario's n-th request, n counted over every connection (and on from the previous run). */
function load(
  target: TTarget,
  request: (n: number) => TBenchRequest,
  counter: { n: number },
  connections: number,
  seconds: number,
): autocannon.Options {
  const first = request(0);
  return {
    url: target.baseUrl.replace(/\/v1$/, ''),
    connections,
    duration: seconds,
    requests: [
      {
        method: first.method,
        path: first.path,
        setupRequest: (current) => {
          const next = request(counter.n++);
          return { ...current, method: next.method, path: next.path, headers: next.headers, body: next.body };
        },
      },
    ],
  };
}

/**
 * Waits until no other statement runs on the database: an uncached reference query outlives its client's run by
 * seconds (facets take several), and would otherwise load the next measurement.
 */
async function untilDatabaseQuiet(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let quietSamples = 0, waitedMs = 0; quietSamples < 2 && waitedMs < QUIET_TIMEOUT_MS; waitedMs += 100) {
      const { rows } = await client.query(
        `select count(*)::int as busy from pg_stat_activity where state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      quietSamples = rows[0].busy === 0 ? quietSamples + 1 : 0;
      await sleep(100);
    }
  } finally {
    await client.end();
  }
}

/** The API is asked the scenario's requests; a reference its `referenceRequest` when the scenario has one. */
function requestsOf(
  comparison: TComparison,
  side: 'api' | 'reference',
): { warmUp: (n: number) => TBenchRequest; request: (n: number) => TBenchRequest } {
  if (side === 'reference' && comparison.referenceRequest)
    return { warmUp: comparison.referenceRequest, request: comparison.referenceRequest };
  return { warmUp: comparison.warmUp ?? comparison.request, request: comparison.request };
}

async function run(
  target: TTarget,
  side: 'api' | 'reference',
  comparison: TComparison,
  counter: { n: number },
  options: TBenchOptions,
  databaseUrl: string,
): Promise<TScenarioResult> {
  const { warmUp, request } = requestsOf(comparison, side);
  await untilDatabaseQuiet(databaseUrl);
  await measure(`${comparison.name} (warm-up)`, target, load(target, warmUp, counter, 4, WARM_UP_SECONDS));
  return measure(comparison.name, target, load(target, request, counter, CONNECTIONS, options.durationSeconds));
}

/** Restarts the API under --cpu-prof for one scenario and prints where its CPU time went. */
async function profiled<T>(environment: TBenchEnvironment, name: string, body: () => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'careers-bench-prof-'));
  await environment.restartApi(['--cpu-prof', `--cpu-prof-dir=${folder}`]);
  const result = await body();
  // Stopping the API writes the profile; it comes back without the profiler for what follows.
  await environment.restartApi();
  const file = newestProfile(folder);
  console.log(`\n  CPU profile of the API during ${name} (API start-up included): ${file}`);
  if (file) console.log(summariseProfile(JSON.parse(readFileSync(file, 'utf8'))));
  return result;
}

function printTable(rows: TRow[]): void {
  const cells = (values: Array<string | number>, widths: number[]) =>
    values.map((value, i) => String(value)[i === 0 ? 'padEnd' : 'padStart'](widths[i]!)).join(' ');
  const withOwn = rows.some((row) => row.own);
  const widths = [18, 12, 14, 7, 8, 12, 14, 20, 20, ...(withOwn ? [12] : [])];
  const cpu = (result: TScenarioResult) =>
    `${result.serverCpuMsPerRequest ?? '?'} + db ${result.databaseCpuMsPerRequest ?? '?'}`;
  console.log(
    `\n${cells(['scenario', 'project r/s', 'reference r/s', 'ratio', 'p99 ms', 'ref p99 ms', 'API peak RSS', 'API CPU ms/req', 'ref CPU ms/req', ...(withOwn ? ['own ref r/s'] : [])], widths)}`,
  );
  for (const { comparison, api, reference, ratio, own } of rows) {
    const ownCell = withOwn ? [own?.requestsPerSecond ?? '-'] : [];
    console.log(
      cells(
        [
          comparison.name,
          api.requestsPerSecond,
          reference.requestsPerSecond,
          `${ratio.toFixed(2)}×`,
          api.latencyP99Ms,
          reference.latencyP99Ms,
          `${api.peakRssMb} MB`,
          cpu(api),
          cpu(reference),
          ...ownCell,
        ],
        widths,
      ),
    );
  }
}

/** The budgets of issue #12, each PASS or FAIL; true when all pass. */
function checkBudgets(rows: TRow[]): boolean {
  const checks: Array<[string, boolean]> = [];
  for (const { comparison, api, reference, ratio } of rows) {
    checks.push([
      `${comparison.name}: ${ratio.toFixed(2)}× the reference (budget ≥ ${comparison.minRatio}×)`,
      ratio >= comparison.minRatio,
    ]);
    if (comparison.maxP99Ms !== undefined)
      checks.push([
        `${comparison.name}: p99 ${api.latencyP99Ms} ms (budget ≤ ${comparison.maxP99Ms} ms)`,
        api.latencyP99Ms <= comparison.maxP99Ms,
      ]);
    // A run with failures measures something else than the scenario: on either side it is a failed check.
    for (const [side, result] of [
      ['API', api],
      ['reference', reference],
    ] as const) {
      const failed =
        result.errors +
        Object.entries(result.statuses)
          .filter(([status]) => !status.startsWith('2'))
          .reduce((sum, [, count]) => sum + count, 0);
      if (failed > 0)
        checks.push([
          `${comparison.name}: ${failed} ${side} answers were errors or not 2xx ${JSON.stringify(result.statuses)}`,
          false,
        ]);
    }
  }
  const peak = Math.max(...rows.map((row) => row.api.peakRssMb));
  checks.push([`API peak RSS ${peak} MB (budget ≤ ${MAX_API_RSS_MB} MB)`, peak <= MAX_API_RSS_MB]);
  console.log('\nbudgets:');
  for (const [text, pass] of checks) console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${text}`);
  return checks.every(([, pass]) => pass);
}

/** The comparison scenarios named in `only` (all when empty), API then reference for each, one environment. */
async function compare(
  environment: TBenchEnvironment,
  options: TBenchOptions,
  only: string[],
): Promise<TScenarioResult[]> {
  const data = await readBenchData(environment.databaseUrl);
  const selected = comparisons(data).filter((comparison) => only.length === 0 || only.includes(comparison.name));
  const reference = await startSharedReference(environment.databaseUrl, benchDocument(vacanciesOf(options)));
  const own = options.ownReference ? await startReferenceProcess(environment.databaseUrl) : undefined;
  const api: TTarget = {
    baseUrl: environment.baseUrl,
    resetPeak: environment.resetPeak,
    rss: environment.rss,
    pid: environment.apiPid,
  };
  const targetOf = (server: TReferenceProcess): TTarget => ({
    baseUrl: server.baseUrl,
    resetPeak: server.resetPeak,
    rss: server.rss,
    pid: () => server.pid,
  });
  const rows: TRow[] = [];
  try {
    for (const comparison of selected) {
      const counter = { n: 0 };
      const measureApi = () => run(api, 'api', comparison, counter, options, environment.databaseUrl);
      const apiResult = options.profile ? await profiled(environment, comparison.name, measureApi) : await measureApi();
      const referenceResult = await run(
        targetOf(reference),
        'reference',
        comparison,
        counter,
        options,
        environment.databaseUrl,
      );
      const ownResult = own
        ? await run(targetOf(own), 'reference', comparison, counter, options, environment.databaseUrl)
        : undefined;
      const ratio = apiResult.requestsPerSecond / Math.max(referenceResult.requestsPerSecond, 0.1);
      const figures = (result: TScenarioResult) =>
        `${result.requestsPerSecond} r/s (p99 ${result.latencyP99Ms} ms, CPU ${result.serverCpuMsPerRequest} ms + db ${result.databaseCpuMsPerRequest} ms per request)`;
      console.log(
        `  ${comparison.name.padEnd(18)} API ${figures(apiResult)} · reference ${figures(referenceResult)} · ${ratio.toFixed(2)}×`,
      );
      if (comparison.referenceRequest)
        console.log(
          `  ${''.padEnd(18)} (the API asked ${comparison.request(0).path}…, the references ${comparison.referenceRequest(0).path}…)`,
        );
      if (ownResult) console.log(`  ${''.padEnd(18)} own reference ${figures(ownResult)}`);
      rows.push({ comparison, api: apiResult, reference: referenceResult, ratio, own: ownResult });
    }
  } finally {
    await reference.stop();
    await own?.stop();
  }
  printTable(rows);
  if (!checkBudgets(rows)) process.exitCode = 1;
  return rows.flatMap((row) => [
    row.api,
    { ...row.reference, scenario: `${row.comparison.name} (reference)` },
    ...(row.own ? [{ ...row.own, scenario: `${row.comparison.name} (own reference)` }] : []),
  ]);
}

export function comparisonScenario(only: string[]): TLoadScenario {
  return {
    description: `${only.length === 0 ? 'every scenario' : only.join(', ')}: the API against ../shared/reference-server (node:http + pg, no cache), ${CONNECTIONS} connections; --quick, --vacancies N, --profile, --own-reference`,
    document: (options) => benchDocument(vacanciesOf(options)),
    run: (environment, options) => compare(environment, options, only),
  };
}

/** `compare` (the whole ratio table) and each of its scenarios alone in its own environment (`pnpm bench detail --profile`). */
export const comparisonScenarios: Record<string, TLoadScenario> = {
  compare: comparisonScenario([]),
  ...Object.fromEntries(COMPARISON_NAMES.map((name) => [name, comparisonScenario([name])])),
};
