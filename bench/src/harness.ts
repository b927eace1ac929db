import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, migrateUp, openOrm, startEmbeddedPostgres, API_NODE_FLAGS } from '@careers/core';
import { importTenantDocument } from '@careers/core/operations';

const API_MAIN = fileURLToPath(new URL('../../apps/api/src/main.ts', import.meta.url));
const REFERENCE_MAIN = fileURLToPath(new URL('./reference/main.ts', import.meta.url));

export type TBenchEnvironment = {
  /** Base address of the API, with /v1. */
  baseUrl: string;
  /** The API's GET /metrics, on its operations port (METRICS_PORT). */
  metricsUrl: string;
  databaseUrl: string;
  /** RSS of the API process: now, and the highest value sampled (and the kernel's high-water mark). */
  rss: () => { currentMb: number; peakMb: number; highWaterMb: number };
  /** Starts a new peak measurement (e.g. after warm-up). */
  resetPeak: () => void;
  /** The API's process id (it changes when the API is restarted). */
  apiPid: () => number;
  /** Whether the API process has ended (crashed, or killed by a caller). */
  apiExited: () => boolean;
  /**
   * Starts the API again on the same port after it ended (`pnpm abuse` goes on after an attack kills it), or stops
   * and restarts it, with extra Node flags if given (a CPU profile of one scenario).
   */
  restartApi: (nodeFlags?: string[]) => Promise<void>;
  stop: () => Promise<void>;
};

/** A process's resident set (now, or its high-water mark) in kB, from /proc; 0 once it is gone. */
export function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The resident set of a process and all its descendants in kB (the worker parses resumes in child processes). */
export function processTreeRssKb(pid: number): number {
  let total = procStatusKb(pid, 'VmRSS');
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    // gone, or not Linux
  }
  for (const child of children) total += processTreeRssKb(Number(child));
  return total;
}

/**
 * The shared setup of every scenario: a throw-away embedded PostgreSQL, the schema, a tenant document, and
 * the API as its own process (as `pnpm start:api` runs it) whose RSS is sampled every 50 ms.
 * For experiments: BENCH_PG_FLAGS adds server settings (e.g. `-c synchronous_commit=off`), and
 * BENCH_API_NODE_FLAGS adds Node flags to the API (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_REF_NODE_FLAGS to
 * the reference server of `pnpm bench compare` (to profile it the same way).
 */
export async function startBenchEnvironment(
  document: unknown,
  options: { env?: Record<string, string> } = {},
): Promise<TBenchEnvironment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'careers-bench-pg-'));
  const postgres = await startEmbeddedPostgres({
    dataDir,
    port: 0,
    database: 'careers_bench',
    ephemeral: true,
    postgresFlags: ['-c', 'shared_buffers=256MB', ...(process.env.BENCH_PG_FLAGS?.split(' ') ?? [])],
  });
  let api: ChildProcess | undefined;
  try {
    const orm = await openOrm(postgres.url);
    try {
      await migrateUp(orm);
      await importTenantDocument({ em: orm.em }, document);
    } finally {
      await orm.close();
    }

    const port = await freePort();
    const metricsPort = await freePort();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const launch = (nodeFlags: string[] = []) =>
      startServerProcess(
        API_MAIN,
        [...API_NODE_FLAGS, ...(process.env.BENCH_API_NODE_FLAGS?.split(' ') ?? []), ...nodeFlags],
        {
          DATABASE_URL: postgres.url,
          PORT: String(port),
          METRICS_PORT: String(metricsPort),
          ...options.env,
        },
      );
    api = await launch();
    let child = api;

    let peakKb = procStatusKb(child.pid ?? 0, 'VmRSS');
    const sampler = setInterval(() => {
      peakKb = Math.max(peakKb, procStatusKb(child.pid ?? 0, 'VmRSS'));
    }, 50);
    sampler.unref();
    const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

    return {
      baseUrl,
      metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
      databaseUrl: postgres.url,
      rss: () => {
        const pid = child.pid ?? 0;
        const current = procStatusKb(pid, 'VmRSS');
        peakKb = Math.max(peakKb, current);
        return { currentMb: mb(current), peakMb: mb(peakKb), highWaterMb: mb(procStatusKb(pid, 'VmHWM')) };
      },
      resetPeak: () => {
        peakKb = procStatusKb(child.pid ?? 0, 'VmRSS');
      },
      apiPid: () => child.pid ?? 0,
      apiExited: () => child.exitCode !== null || child.signalCode !== null,
      restartApi: async (nodeFlags) => {
        await stopProcess(child);
        child = await launch(nodeFlags);
        api = child;
        peakKb = procStatusKb(child.pid ?? 0, 'VmRSS');
      },
      stop: async () => {
        clearInterval(sampler);
        await stopProcess(child);
        await postgres.stop();
      },
    };
  } catch (error) {
    if (api) await stopProcess(api);
    await postgres.stop();
    throw error;
  }
}

/** A server of the benchmarks (the API, as `pnpm start:api` runs it, or the reference) on env.PORT, once it answers. */
export async function startServerProcess(
  main: string,
  nodeFlags: string[],
  env: Record<string, string>,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeFlags, main], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    for (let waited = 0; ; waited += 50) {
      if (child.exitCode !== null) throw new Error(`${main} exited with ${child.exitCode}`);
      if (waited > 30_000) throw new Error(`${main} did not become live within 30 s`);
      // Any HTTP answer will do (the reference has no /livez: its 404 says it listens).
      if (
        await fetch(`http://127.0.0.1:${env.PORT}/v1/livez`).then(
          () => true,
          () => false,
        )
      )
        return child;
      await sleep(50);
    }
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

export type TReferenceProcess = {
  baseUrl: string;
  pid: number;
  rss: () => { currentMb: number; peakMb: number };
  resetPeak: () => void;
  stop: () => Promise<void>;
};

/** The reference server (bench/src/reference) as its own process on the benchmark's database, with the API's Node flags. */
export async function startReferenceProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<TReferenceProcess> {
  const port = await freePort();
  const child = await startServerProcess(
    REFERENCE_MAIN,
    [...API_NODE_FLAGS, ...(process.env.BENCH_REF_NODE_FLAGS?.split(' ') ?? [])],
    { DATABASE_URL: databaseUrl, PORT: String(port), ...env },
  );
  return trackedProcess(child, `http://127.0.0.1:${port}/v1`);
}

/** A started server process with its RSS sampled every 50 ms; `stop` ends it, then runs `afterStop`. */
export function trackedProcess(
  child: ChildProcess,
  baseUrl: string,
  afterStop: () => void = () => undefined,
): TReferenceProcess {
  const pid = child.pid ?? 0;
  let peakKb = procStatusKb(pid, 'VmRSS');
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, procStatusKb(pid, 'VmRSS'));
  }, 50);
  sampler.unref();
  return {
    baseUrl,
    pid,
    rss: () => {
      peakKb = Math.max(peakKb, procStatusKb(pid, 'VmRSS'));
      return {
        currentMb: Math.round(procStatusKb(pid, 'VmRSS') / 102.4) / 10,
        peakMb: Math.round(peakKb / 102.4) / 10,
      };
    },
    resetPeak: () => {
      peakKb = procStatusKb(pid, 'VmRSS');
    },
    stop: async () => {
      clearInterval(sampler);
      await stopProcess(child);
      afterStop();
    },
  };
}

/** SIGTERM, then SIGKILL after 30 s (longer than the API's own 10 s grace for open connections, so a CPU profile gets written). */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  if (!(await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]))) {
    child.kill('SIGKILL');
    await exited;
  }
}
