import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TResumeKind } from './resume-file.ts';
import type { TParsedResume, TParseResumeOptions } from './resume-parse.ts';
import { ResumeParseError } from './resume-text.ts';

/**
 * How much one resume may cost. Measured: a parse process holds ~110 MB resident once pdf.js is loaded, ~155 MB at
 * its peak for a 7.4 MB PDF of 60 pages with a photo; the crafted files of `testing/crafted-resumes.ts` are stopped
 * at 176 MB within 1–5 s. With two jobs at once, the worker and its parse processes stay under +400 MB.
 */
export type TResumeSandboxLimits = {
  /** Resident memory of a parse process (MB) beyond which it is killed; its V8 heap is capped below it. */
  memoryMb: number;
  /** Wall-clock time of one parse (ms) beyond which its process is killed. */
  timeoutMs: number;
  /**
   * The same for a resume read by OCR (a photo, a scan, a PDF without text): from the moment the parse process says
   * OCR starts, the parse may take this long in all (Tesseract reads a page in ~4–10 s).
   */
  ocrTimeoutMs: number;
  /** Parse processes at most (one per resume being read at once: the worker's job concurrency). */
  processes: number;
};

export const DEFAULT_RESUME_SANDBOX_LIMITS: TResumeSandboxLimits = {
  memoryMb: 176,
  timeoutMs: 20_000,
  ocrTimeoutMs: 60_000,
  processes: 2,
};

/** Why a parse was stopped by the sandbox rather than finished by the parser. */
export type TSandboxStop = 'timeout' | 'memory' | 'crash';

export const RESUME_LIMITS_ERROR = 'The resume could not be read within the limits (too large or too complex).';

/**
 * A parse the sandbox stopped: over its memory or time, or its process died or threw something unexpected.
 * A ResumeParseError, so callers treat it like any unreadable file: deterministic, not worth a retry.
 */
export class ResumeLimitError extends ResumeParseError {
  readonly reason: TSandboxStop;

  constructor(reason: TSandboxStop, options?: { cause?: unknown }) {
    super(RESUME_LIMITS_ERROR, options);
    this.reason = reason;
  }
}

export type TSandboxRequest = { id: number; bytes: Uint8Array; kind: TResumeKind; defaultRegion?: string };
export type TSandboxReply =
  | { id: number; outcome: 'ready' }
  /** OCR starts: the parse now has the OCR time limit. */
  | { id: number; outcome: 'ocr' }
  | { id: number; outcome: 'parsed'; fields: TParsedResume }
  | { id: number; outcome: 'refused'; message: string; cause?: { name: string; message: string } }
  | { id: number; outcome: 'error'; error: { name: string; message: string } };

const CHILD = fileURLToPath(new URL('./resume-sandbox.child.ts', import.meta.url));
/** How often a busy parse process's resident memory is read. */
const MEMORY_POLL_MS = 10;
/** Room for everything but the V8 heap in a parse process: Node itself, code, pdf.js's buffers. */
const NON_HEAP_MB = 80;
const PAGE_SIZE = 4096;
/** A process is reused after a resume only while its resident memory is below this share of the limit. */
const REUSE_BELOW = 0.75;
/** How long an idle parse process is kept. */
const IDLE_MS = 60_000;

/** Resident bytes of a process (Linux), or undefined when it cannot be read (gone, or no /proc). */
function residentBytes(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_SIZE : undefined;
  } catch {
    return undefined;
  }
}

/** One parse process, reused from resume to resume until it is killed or grows too large. */
class ParseProcess {
  readonly #child: ChildProcess;
  readonly #ready: Promise<void>;
  #exited = false;
  /** The end of stderr: V8 writes "heap out of memory" there when the capped heap is exhausted. */
  #stderr = '';
  #nextId = 1;

  constructor(limits: TResumeSandboxLimits) {
    const heapMb = Math.max(32, limits.memoryMb - NON_HEAP_MB);
    this.#child = fork(CHILD, [], {
      execArgv: [`--max-old-space-size=${heapMb}`, '--max-semi-space-size=4'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: {},
    });
    this.#child.stderr?.setEncoding('utf8');
    this.#child.stderr?.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-4096);
    });
    this.#child.once('exit', () => {
      this.#exited = true;
    });
    (this.#child.stderr as { unref?: () => void } | null)?.unref?.();
    this.#hold(false);
    this.#ready = new Promise<void>((resolve, reject) => {
      const onMessage = (reply: TSandboxReply) => {
        if (reply.outcome !== 'ready') return;
        this.#child.off('exit', onExit);
        this.#child.off('message', onMessage);
        resolve();
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        this.#child.off('message', onMessage);
        // Not the file's fault (it has not been sent yet): a plain error, for the job to be retried.
        reject(
          new Error(
            `the resume parse process ended on start (${signal ?? `exit code ${code}`}): ${this.#stderr.slice(-1000)}`,
          ),
        );
      };
      this.#child.on('message', onMessage);
      this.#child.once('exit', onExit);
    });
    this.#ready.catch(() => undefined);
  }

  /** A busy parse process keeps the event loop alive (its caller awaits it); an idle one must not. */
  #hold(busy: boolean): void {
    if (busy) {
      this.#child.ref();
      this.#child.channel?.ref();
    } else {
      this.#child.unref();
      this.#child.channel?.unref();
    }
  }

  get alive(): boolean {
    // `killed`: signalled, even if its exit has not been reported yet (it must not be reused meanwhile).
    return !this.#exited && !this.#child.killed && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  residentMb(): number | undefined {
    const pid = this.#child.pid;
    const bytes = pid === undefined ? undefined : residentBytes(pid);
    return bytes === undefined ? undefined : bytes / 1024 / 1024;
  }

  kill(): void {
    if (this.alive) this.#child.kill('SIGKILL');
  }

  /**
   * Parses one resume here. Settles with the fields; rejects with a ResumeParseError (the parser refused the file),
   * a ResumeLimitError (this process was killed or failed: it is not to be reused), or the signal's reason.
   */
  async parse(
    bytes: Uint8Array,
    kind: TResumeKind,
    options: TParseResumeOptions,
    limits: TResumeSandboxLimits,
  ): Promise<TParsedResume> {
    this.#hold(true);
    try {
      return await this.#parse(bytes, kind, options, limits);
    } finally {
      this.#hold(false);
    }
  }

  async #parse(
    bytes: Uint8Array,
    kind: TResumeKind,
    options: TParseResumeOptions,
    limits: TResumeSandboxLimits,
  ): Promise<TParsedResume> {
    const started = Date.now();
    await raceAbort(this.#ready, options.signal, () => this.kill());
    // Gone before it got this resume: not the file's doing, so a plain error (the job is retried).
    if (!this.alive) throw new Error('the resume parse process ended before the resume was sent');
    const id = this.#nextId++;
    const child = this.#child;
    return new Promise<TParsedResume>((resolve, reject) => {
      let stoppedFor: TSandboxStop | 'abort' | undefined;
      const stop = (reason: TSandboxStop | 'abort') => {
        stoppedFor ??= reason;
        // A process that is already gone will not report its exit again: settle now.
        if (this.alive) this.kill();
        else onExit(child.exitCode, child.signalCode);
      };
      // The time already spent starting the process counts: the limit is per resume.
      let timer = setTimeout(() => stop('timeout'), Math.max(0, limits.timeoutMs - (Date.now() - started)));
      const poll = setInterval(() => {
        const resident = this.residentMb();
        if (resident !== undefined && resident > limits.memoryMb) stop('memory');
      }, MEMORY_POLL_MS);
      const onAbort = () => stop('abort');
      options.signal?.addEventListener('abort', onAbort, { once: true });

      const finish = () => {
        clearTimeout(timer);
        clearInterval(poll);
        options.signal?.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (reply: TSandboxReply) => {
        if (reply.id !== id) return;
        if (reply.outcome === 'ocr') {
          clearTimeout(timer);
          timer = setTimeout(
            () => stop('timeout'),
            Math.max(0, Math.max(limits.timeoutMs, limits.ocrTimeoutMs) - (Date.now() - started)),
          );
          return;
        }
        finish();
        if (reply.outcome === 'parsed') resolve(reply.fields);
        else if (reply.outcome === 'refused')
          reject(new ResumeParseError(reply.message, { cause: reply.cause && rebuilt(reply.cause) }));
        else {
          // A parser that throws something other than a refusal may be left in any state: not reused.
          this.kill();
          reject(
            new ResumeLimitError('crash', {
              cause: reply.outcome === 'error' ? rebuilt(reply.error) : new Error(`unexpected reply ${reply.outcome}`),
            }),
          );
        }
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        finish();
        if (stoppedFor === 'abort') {
          reject(options.signal?.reason ?? new Error('aborted'));
          return;
        }
        const outOfHeap = /heap out of memory|Reached heap limit/i.test(this.#stderr);
        const reason = stoppedFor ?? (outOfHeap ? 'memory' : 'crash');
        // Only V8's own fatal line of stderr is kept: anything else printed there might quote the resume.
        const fatal = /^FATAL ERROR: .*$/m.exec(this.#stderr)?.[0];
        const cause = new Error(
          `the parse process ended (${signal ?? `exit code ${code}`})${fatal ? `: ${fatal}` : ''}`,
        );
        reject(new ResumeLimitError(reason, { cause }));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (options.signal?.aborted) {
        stop('abort');
        return;
      }
      const request: TSandboxRequest = {
        id,
        bytes,
        kind,
        ...(options.defaultRegion === undefined ? {} : { defaultRegion: options.defaultRegion }),
      };
      child.send(request, (error) => {
        if (error) stop('crash');
      });
    });
  }
}

/** An error described by the parse process, as an Error again (for the logs). */
function rebuilt(described: { name: string; message: string }): Error {
  const error = new Error(described.message);
  error.name = described.name;
  return error;
}

async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort: () => void): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  let listener: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    listener = () => {
      onAbort();
      reject(signal.reason);
    };
    signal.addEventListener('abort', listener, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (listener) signal.removeEventListener('abort', listener);
  }
}

export type TResumeSandboxOptions = {
  limits?: Partial<TResumeSandboxLimits>;
  /** Told each time a parse is stopped by a limit or a crash (for metrics). */
  onStop?: (reason: TSandboxStop) => void;
};

/**
 * Reads resumes in separate processes with a memory and a time limit, so that a crafted file costs at most one
 * process's limits and a crash of the parser takes no other job with it. Processes are started on demand (up to
 * `processes`), reused across resumes (pdf.js is loaded once per process), and replaced after they are killed.
 * A worker thread was measured and rejected: its heap cap left pdf.js's buffers unbounded (1.2 GB), and an
 * out-of-memory in a thread's GC task aborted the whole process.
 */
export class ResumeSandbox {
  readonly limits: TResumeSandboxLimits;
  readonly #onStop: ((reason: TSandboxStop) => void) | undefined;
  readonly #idle: ParseProcess[] = [];
  readonly #busy = new Set<ParseProcess>();
  readonly #idleTimers = new Map<ParseProcess, NodeJS.Timeout>();
  readonly #waiting: Array<(process: ParseProcess | undefined) => void> = [];
  #closed = false;

  constructor(options: TResumeSandboxOptions = {}) {
    this.limits = { ...DEFAULT_RESUME_SANDBOX_LIMITS, ...options.limits };
    this.#onStop = options.onStop;
  }

  /**
   * `parseResume(bytes, kind, options)` in a parse process.
   *
   * @throws ResumeParseError when the file cannot be read; a ResumeLimitError (one of them) when the parse was
   *   stopped by a limit or its process crashed.
   * @throws the signal's reason when `signal` aborts (the parse process is killed).
   */
  async parse(bytes: Uint8Array, kind: TResumeKind, options: TParseResumeOptions = {}): Promise<TParsedResume> {
    options.signal?.throwIfAborted();
    const process = await this.#acquire(options.signal);
    try {
      return await process.parse(bytes, kind, options, this.limits);
    } catch (error) {
      if (error instanceof ResumeLimitError) this.#onStop?.(error.reason);
      throw error;
    } finally {
      this.#release(process);
    }
  }

  /** Kills every parse process; parses under way reject. */
  close(): void {
    this.#closed = true;
    for (const process of [...this.#idle, ...this.#busy]) process.kill();
    for (const timer of this.#idleTimers.values()) clearTimeout(timer);
    this.#idleTimers.clear();
    this.#idle.length = 0;
    for (const wake of this.#waiting.splice(0)) wake(undefined);
  }

  async #acquire(signal: AbortSignal | undefined): Promise<ParseProcess> {
    if (this.#closed) throw new Error('the resume sandbox is closed');
    let process = this.#takeIdle();
    if (!process && this.#busy.size < this.limits.processes) process = new ParseProcess(this.limits);
    if (!process) process = await this.#wait(signal);
    this.#busy.add(process);
    return process;
  }

  /** Waits for a process handed over by #release; one that stops waiting (abort) leaves the line. */
  #wait(signal: AbortSignal | undefined): Promise<ParseProcess> {
    return new Promise<ParseProcess>((resolve, reject) => {
      const onAbort = () => {
        const at = this.#waiting.indexOf(take);
        if (at !== -1) this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      const take = (process: ParseProcess | undefined) => {
        signal?.removeEventListener('abort', onAbort);
        if (process) resolve(process);
        else reject(new Error('the resume sandbox is closed'));
      };
      this.#waiting.push(take);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #takeIdle(): ParseProcess | undefined {
    for (let process = this.#idle.pop(); process; process = this.#idle.pop()) {
      clearTimeout(this.#idleTimers.get(process));
      this.#idleTimers.delete(process);
      if (process.alive) return process;
    }
    return undefined;
  }

  #release(process: ParseProcess): void {
    this.#busy.delete(process);
    // A process that grew near its limit would start the next resume handicapped: replace it.
    const resident = process.alive ? process.residentMb() : undefined;
    const reusable = !this.#closed && resident !== undefined && resident <= this.limits.memoryMb * REUSE_BELOW;
    if (!reusable) process.kill();
    const next = this.#waiting.shift();
    if (next) {
      next(reusable ? process : new ParseProcess(this.limits));
      return;
    }
    if (!reusable) return;
    this.#idle.push(process);
    // An idle process holds ~100 MB (pdf.js): it goes after a quiet minute, and comes back with the next resume.
    const timer = setTimeout(() => {
      this.#idleTimers.delete(process);
      const at = this.#idle.indexOf(process);
      if (at !== -1) this.#idle.splice(at, 1);
      process.kill();
    }, IDLE_MS);
    timer.unref();
    this.#idleTimers.set(process, timer);
  }
}
