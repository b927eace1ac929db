import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnAsServiceUser } from './os-user.ts';

/** A server binary running as the service user, its output in a log file. */
export type TServerProcess = {
  pid: () => number;
  running: () => boolean;
  /** The end of its log (for failure messages). */
  logTail: () => string;
  /** Sends `signal` and waits for the exit; SIGKILL after `graceMs`. */
  stop: (signal?: NodeJS.Signals, graceMs?: number) => Promise<void>;
};

/** Every child still running: killed when the test process exits, whatever way it ends (no orphaned servers). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills `child` if this process exits before it does. */
export function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

export function startServerProcess(command: string, args: string[], logFile: string): TServerProcess {
  const log = openSync(logFile, 'a');
  const child = spawnAsServiceUser(command, args, { stdio: ['ignore', log, log] });
  closeSync(log);
  killOnExit(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  return {
    pid: () => child.pid ?? 0,
    running: isRunning,
    logTail: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-60).join('\n') : ''),
    stop: async (signal = 'SIGINT', graceMs = 15_000) => {
      if (!isRunning()) return;
      child.kill(signal);
      if (!(await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]))) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Polls `ready` until it is true; fails with the server's log when it ends or `timeoutMs` passes. */
export async function waitUntil(
  what: string,
  server: TServerProcess,
  ready: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!server.running()) throw new Error(`${what} exited:\n${server.logTail()}`);
    if (
      await ready().catch((error: unknown) => {
        if (error instanceof Error && error.name === 'BootstrapFailed') throw error;
        return false;
      })
    )
      return;
    if (Date.now() > deadline) throw new Error(`${what} was not ready within ${timeoutMs} ms:\n${server.logTail()}`);
    await sleep(50);
  }
}
