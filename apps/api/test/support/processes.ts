import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, API_NODE_FLAGS } from '@careers/core';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export type TApiProcess = {
  baseUrl: string;
  /** GET /metrics on the process's own operations port (METRICS_PORT). */
  metricsUrl: string;
  pid: number;
  /** Resident set size now, in KiB (Linux /proc). */
  rssKb: () => number;
  /** Peak resident set size since start (VmHWM), in KiB. */
  peakRssKb: () => number;
  /** What the process printed (for failure messages). */
  output: () => string;
  stop: () => Promise<void>;
};

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] ? Number(match[1]) : 0;
}

/**
 * Starts `apps/api/src/main.ts` as its own process (the deployment unit, as `pnpm start:api` runs it) on a free
 * port over `databaseUrl`, and waits until /v1/livez answers.
 */
export async function startApiProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<TApiProcess> {
  const port = await freePort();
  const metricsPort = await freePort();
  // process.execPath is the Node 24 running this test, not the shell wrapper that would swallow SIGTERM.
  const child: ChildProcess = spawn(process.execPath, [...API_NODE_FLAGS, MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const pid = child.pid;
  if (pid === undefined) throw new Error('API process did not start');

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API process exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/livez`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API process did not become live within 30 s:\n${output}`);
    }
    await sleep(50);
  }

  return {
    baseUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    pid,
    rssKb: () => statusField(pid, 'VmRSS'),
    peakRssKb: () => statusField(pid, 'VmHWM'),
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
