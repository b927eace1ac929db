import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@careers/core';
import { API_NODE_FLAGS, WORKER_NODE_FLAGS } from '@careers/core';
import { killOnExit } from './server-process.ts';

const repoFile = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const API_MAIN = repoFile('apps/api/src/main.ts');
const WORKER_MAIN = repoFile('apps/worker/src/main.ts');
const CLI_MAIN = repoFile('apps/cli/src/main.ts');
const ADMIN_MAIN = repoFile('apps/admin/src/server/main.ts');

const START_TIMEOUT_MS = 90_000;

/** A deployment unit (API, worker or admin) as its own process, started the way `pnpm start:api` / `start:worker` / `start:admin` do. */
export type TUnit = {
  name: string;
  pid: () => number;
  /** The API's (or the admin's) public port (0 for a worker). */
  port: number;
  output: () => string;
  exited: () => boolean;
  /** SIGTERM, then the exit (graceful: in-flight requests or jobs finish); SIGKILL after 30 s. */
  stop: () => Promise<number | null>;
  /** Starts the same unit again (same port, same environment) after it stopped. */
  restart: () => Promise<void>;
};

export type TUnitEnv = Record<string, string>;

/** The environment every unit of a cluster shares: quiet, on loopback, no operations ports. */
function unitEnv(env: TUnitEnv): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    WORKER_METRICS_PORT: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...env,
  };
}

function launch(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: (output: string) => Promise<boolean>,
  port: number,
): Promise<TUnit> {
  let child: ChildProcess;
  let output = '';
  const start = async () => {
    output = '';
    // process.execPath is the Node 24 running this process, not the shell wrapper that would swallow SIGTERM.
    child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    killOnExit(child);
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    // Generous: five units start side by side on two cores that other runs may share.
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await ready(output))) {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} was not ready within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
      }
      await sleep(50);
    }
  };
  const unit: TUnit = {
    name,
    port,
    pid: () => child.pid ?? 0,
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: async () => {
      if (unit.exited()) return child.exitCode;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      if (!(await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]))) {
        child.kill('SIGKILL');
        await exited;
      }
      return child.exitCode;
    },
    restart: start,
  };
  return start().then(() => unit);
}

/** An API process on a free port, ready once /v1/livez answers. */
export async function startApi(name: string, env: TUnitEnv): Promise<TUnit> {
  const port = await freePort();
  const live = async () =>
    fetch(`http://127.0.0.1:${port}/v1/livez`).then(
      (response) => response.ok,
      () => false,
    );
  return launch(name, [...API_NODE_FLAGS, API_MAIN], unitEnv({ ...env, PORT: String(port) }), live, port);
}

/** A worker process, ready once it logged that it started (its queues exist then). */
export async function startWorker(name: string, env: TUnitEnv): Promise<TUnit> {
  // The line is at info level: the worker logs at info whatever the cluster's level.
  const started = async (output: string) => output.includes('worker started');
  return launch(name, [...WORKER_NODE_FLAGS, WORKER_MAIN], unitEnv({ ...env, LOG_LEVEL: 'info' }), started, 0);
}

/**
 * The admin dashboard's server on a free port, ready once /healthz answers. It builds the dashboard first when
 * apps/admin/dist is missing (a fresh clone), which the start timeout allows for.
 */
export async function startAdmin(name: string, env: TUnitEnv): Promise<TUnit> {
  const port = await freePort();
  const healthy = async () =>
    fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
  return launch(name, [ADMIN_MAIN], unitEnv({ ...env, ADMIN_PORT: String(port) }), healthy, port);
}

/** `careers <args>` (the command line operators run), to its end; its output goes into the error when it fails. */
export async function careers(args: string[], env: TUnitEnv): Promise<string> {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], { env: unitEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`careers ${args.join(' ')} exited with ${code}:\n${output}`);
  return output;
}
