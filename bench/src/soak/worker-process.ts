import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, WORKER_NODE_FLAGS } from '@careers/core';
import { procStatusKb } from '../harness.ts';

const WORKER_MAIN = fileURLToPath(new URL('../../../apps/worker/src/main.ts', import.meta.url));

export function rssMb(pid: number): number {
  return Math.round((procStatusKb(pid, 'VmRSS') / 1024) * 10) / 10;
}

export type TWorkerProcess = {
  pid: number;
  /** The worker's Prometheus endpoint (it may be absent in builds without one). */
  metricsUrl: string;
  rssMb: () => number;
  exited: () => boolean;
  stop: () => Promise<void>;
};

/** `careers_nodejs_heap_size_used_bytes` of a Prometheus text endpoint in MB, or undefined when there is none. */
export async function heapUsedMb(metricsUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) });
    if (response.status !== 200) return undefined;
    const match = /^careers_nodejs_heap_size_used_bytes(?:\{[^}]*\})? ([\d.e+]+)/m.exec(await response.text());
    return match?.[1] ? Math.round((Number(match[1]) / 1024 / 1024) * 10) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The resume worker as its own process (as `pnpm start:worker` runs it) against the soak's database. Its
 * warnings and errors are passed through; its info lines are only read for the start.
 */
export async function startWorker(databaseUrl: string): Promise<TWorkerProcess> {
  const metricsPort = await freePort();
  const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, WORKER_MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'info',
      WORKER_METRICS_PORT: String(metricsPort),
      WORKER_METRICS_HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let started = false;
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.includes('"msg":"worker started"')) started = true;
      const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? 0);
      if (level >= 40) console.error(`  [worker] ${line.slice(0, 600)}`);
    }
  });
  for (let waited = 0; !started; waited += 100) {
    if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}`);
    if (waited > 30_000) throw new Error('the worker did not start within 30 s');
    await sleep(100);
  }
  const pid = child.pid ?? 0;
  return {
    pid,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    rssMb: () => rssMb(pid),
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      if (!(await Promise.race([exited.then(() => true), sleep(40_000).then(() => false)]))) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
