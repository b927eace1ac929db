import autocannon from 'autocannon';
import type { TBenchEnvironment } from './harness.ts';

/** Options every scenario gets from the command line (`pnpm bench [scenario…] --duration 20 --connections 10`). */
export type TBenchOptions = {
  durationSeconds: number;
  connections: number;
  /** How many wrong cases a quality report lists (`--worst 40`). */
  worst: number;
  /** A smaller tenant and shorter runs, for a busy machine (`--quick`). */
  quick?: boolean;
  /** Vacancies of the generated tenant (`--vacancies`; default 100 000, 10 000 with --quick). */
  vacancies?: number;
  /** Profile the API during each comparison scenario and print where its CPU time goes (`--profile`). */
  profile?: boolean;
};

export type TScenarioResult = {
  scenario: string;
  requests: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Status code → count. */
  statuses: Record<string, number>;
  errors: number;
  peakRssMb: number;
  notes?: string;
};

/** A benchmark: the tenant document it needs, and what it measures against the running API. */
export type TLoadScenario = {
  description: string;
  document: (options: TBenchOptions) => unknown;
  /** One result, or one per sub-scenario when several share the environment. */
  run: (environment: TBenchEnvironment, options: TBenchOptions) => Promise<TScenarioResult | TScenarioResult[]>;
};

/** A measurement that needs no running API (e.g. extraction quality on the resume corpus); it prints its own report. */
export type TReportScenario = {
  description: string;
  report: (options: TBenchOptions) => Promise<void>;
};

export type TScenario = TLoadScenario | TReportScenario;

/** Runs autocannon and turns its result into the common figures (peak RSS over the measured run only). */
export async function measure(
  scenario: string,
  environment: Pick<TBenchEnvironment, 'resetPeak'> & { rss: () => { peakMb: number } },
  options: autocannon.Options,
): Promise<TScenarioResult> {
  environment.resetPeak();
  const result = await autocannon(options);
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (stat as { count: number }).count;
  return {
    scenario,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
    peakRssMb: environment.rss().peakMb,
  };
}
