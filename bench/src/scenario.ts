import { readdirSync, readFileSync } from 'node:fs';
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
  /** Also measure our own reference (bench/src/reference) beside the shared one (`--own-reference`). */
  ownReference?: boolean;
  /** Repetitions of a measurement whose median decides (`--rounds`; the import scenario). */
  rounds?: number;
  /** Resume files of one kind only (`--files ocr` or `--files text`; the resumes scenario). */
  files?: 'ocr' | 'text';
  /** Leave the held-out part out (`--tuned`; the resumes scenario): for tuning runs, which must not see it. */
  tunedOnly?: boolean;
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
  /** CPU time per request of the measured server process and of PostgreSQL (every postgres process), when known. */
  serverCpuMsPerRequest?: number;
  databaseCpuMsPerRequest?: number;
  notes?: string;
};

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * User + system CPU seconds of a process, from /proc (0 once it is gone); with `reapedChildren`, also of its children
 * that have ended (a postmaster's backends that closed).
 */
export function processCpuSeconds(pid: number, reapedChildren = false): number {
  try {
    // The fields after the command name (which may hold spaces): utime, stime, cutime and cstime are the 12th to 15th.
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []).map(Number);
    const ticks = fields[11]! + fields[12]! + (reapedChildren ? fields[13]! + fields[14]! : 0);
    return ticks / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of PostgreSQL on this machine (the benchmark's server is the only one it runs): every running postgres
 * process, and the backends that ended (counted by the postmaster that reaped them).
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        total += processCpuSeconds(Number(entry), true);
    } catch {
      // The process ended while being read.
    }
  }
  return total;
}

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
  environment: Pick<TBenchEnvironment, 'resetPeak'> & { rss: () => { peakMb: number }; pid?: () => number },
  options: autocannon.Options,
): Promise<TScenarioResult> {
  environment.resetPeak();
  const pid = environment.pid?.();
  const cpuBefore = pid === undefined ? 0 : processCpuSeconds(pid);
  const databaseBefore = postgresCpuSeconds();
  const result = await autocannon(options);
  const perRequestMs = (seconds: number) =>
    Math.round((seconds * 1000 * 100) / Math.max(result.requests.total, 1)) / 100;
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
    statuses[code] = (stat as { count: number }).count;
  return {
    scenario,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
    peakRssMb: environment.rss().peakMb,
    serverCpuMsPerRequest: pid === undefined ? undefined : perRequestMs(processCpuSeconds(pid) - cpuBefore),
    databaseCpuMsPerRequest: perRequestMs(postgresCpuSeconds() - databaseBefore),
  };
}
