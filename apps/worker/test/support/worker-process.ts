import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgBoss } from 'pg-boss';
import { createBoss } from '@careers/core/worker';
import { WORKER_NODE_FLAGS } from '@careers/core';
import { startPipeline, type TPipeline } from './pipeline.ts';

export const WORKER_MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export type TWorkerProcess = {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  /** Resident memory (MB) of the worker and every process under it (its resume parse processes). */
  residentMb: () => number;
  /** Resident memory (MB) of the worker process alone. */
  ownResidentMb: () => number;
};

const running = new Set<ChildProcess>();

/** SIGKILLs every worker the test file started and that is still running. */
export function killWorkers(): void {
  for (const child of running) child.kill('SIGKILL');
}

function residentBytes(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * 4096;
  } catch {
    return 0;
  }
}

function descendants(pid: number): number[] {
  let listed = '';
  try {
    listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim();
  } catch {
    return [];
  }
  const children = listed === '' ? [] : listed.split(/\s+/).map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The real worker process (`apps/worker/src/main.ts`), started as `pnpm start:worker` would. */
export async function startWorker(databaseUrl: string, env: Record<string, string>): Promise<TWorkerProcess> {
  const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, WORKER_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      // A killed worker's job comes back after 5 s (expiry) and is retried 1–2 s later.
      RESUME_JOB_EXPIRE_SECONDS: '5',
      RESUME_JOB_RETRY_DELAY_SECONDS: '1',
      JOB_SUPERVISE_INTERVAL_SECONDS: '1',
      JOB_POLLING_INTERVAL_SECONDS: '0.5',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const deadline = Date.now() + 30_000;
  while (!output.includes('"msg":"worker started"')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`worker did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pid = child.pid ?? 0;
  return {
    child,
    exited,
    output: () => output,
    residentMb: () => [pid, ...descendants(pid)].reduce((sum, each) => sum + residentBytes(each), 0) / 1024 / 1024,
    ownResidentMb: () => residentBytes(pid) / 1024 / 1024,
  };
}

export type TWorkerPipeline = { pipeline: TPipeline; inspector: PgBoss; close: () => Promise<void> };

/**
 * A pipeline for worker processes, with a pg-boss client (sender role) to look into its queues; `close` kills the
 * workers the test file started, then stops both.
 */
export async function startWorkerPipeline(): Promise<TWorkerPipeline> {
  const pipeline = await startPipeline();
  const inspector = createBoss(pipeline.url, { role: 'sender' });
  await inspector.start();
  return {
    pipeline,
    inspector,
    close: async () => {
      killWorkers();
      await inspector.stop({ graceful: false });
      await pipeline.close();
    },
  };
}
