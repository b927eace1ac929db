import { AppError } from '../../lib/errors.ts';

/** Who is reading: the key whose share of expensive reads is used, and the response that carries `Retry-After`. */
export type TReader = { apiKey: { id: number }; response: { headers: Record<string, string> } };

export type TReadLimits = {
  /** Expensive reads one key may have running in this process while another key's read waits (alone, a key may use all `total`). */
  perKey: number;
  /** Expensive reads this process runs at once, whatever the key (below the database pool's size). */
  total: number;
  /** Reads of one key that may wait for a turn; beyond them a read is refused at once. */
  queuePerKey: number;
  /** How long a read waits for its turn before it is refused. */
  maxWaitMs: number;
  /** Turns a key over its share leaves free, so another key's read that arrives gets one at once. */
  reserve: number;
};

export const DEFAULT_READ_LIMITS: TReadLimits = { perKey: 4, total: 8, queuePerKey: 64, maxWaitMs: 2_000, reserve: 2 };

type TWaiter = { start: () => void; refuse: () => void };

/**
 * Admission of the reads that cost real database work — content-cache misses and the uncached lists — per API key
 * and per process. `total` bounds them all, so the database pool always has connections left for everyone else's
 * cheap reads and writes. The limiter is work-conserving: a key alone may use every turn but `reserve`, kept free so
 * that another key's read starts at once (without them, it waited for one of the busy key's reads to end: ~300 ms in
 * `pnpm abuse`), and its `perKey` share bites only under contention — while another key's read waits, a key at or
 * over its share gets no new turn.
 * A read that finds no turn waits in its key's short queue, at most `maxWaitMs`; beyond the queue, or after the
 * wait, it is shed with 429 and a `Retry-After`. Freed turns go first to the waiting keys below their share, in
 * rotation (a key that was idle gets the very next one), and only when none is to keys over it.
 */
export class ReadLimiter {
  readonly limits: TReadLimits;
  readonly #running = new Map<number, number>();
  /** Waiting reads per key; the Map's order is the rotation (a key served moves to the end). */
  readonly #waiting = new Map<number, TWaiter[]>();
  #total = 0;
  /** Recent duration of an expensive read (moving average), for an honest `Retry-After`. */
  #averageMs = 50;
  /** Reads refused with 429. */
  shed = 0;

  constructor(limits: Partial<TReadLimits> = {}) {
    this.limits = { ...DEFAULT_READ_LIMITS, ...limits };
  }

  /** Runs `work` in one of the reader's turns (waiting for one if needed); throws the 429 when it gets none. */
  async run<T>(reader: TReader, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(reader);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** A turn for the reader; call the returned function when the work is done (once). */
  acquire(reader: TReader): Promise<() => void> {
    const keyId = reader.apiKey.id;
    if (this.#mayStart(keyId) && (this.#waiting.size === 0 || (this.#running.get(keyId) ?? 0) < this.limits.perKey))
      return Promise.resolve(this.#start(keyId));
    const queue = this.#waiting.get(keyId) ?? [];
    if (queue.length >= this.limits.queuePerKey) return Promise.reject(this.#refuse(reader, queue.length));
    return new Promise((resolve, reject) => {
      const waiter: TWaiter = {
        start: () => {
          clearTimeout(timer);
          resolve(this.#start(keyId));
        },
        refuse: () => reject(this.#refuse(reader, queue.length)),
      };
      const timer = setTimeout(() => {
        const list = this.#waiting.get(keyId);
        const index = list?.indexOf(waiter) ?? -1;
        if (!list || index < 0) return;
        list.splice(index, 1);
        if (list.length === 0) this.#waiting.delete(keyId);
        waiter.refuse();
      }, this.limits.maxWaitMs);
      queue.push(waiter);
      this.#waiting.set(keyId, queue);
    });
  }

  /** Reads running and waiting now (tests, metrics). */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.#waiting.values()) waiting += queue.length;
    return { running: this.#total, waiting };
  }

  #start(keyId: number): () => void {
    this.#total++;
    this.#running.set(keyId, (this.#running.get(keyId) ?? 0) + 1);
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#averageMs = this.#averageMs * 0.9 + (performance.now() - started) * 0.1;
      this.#total--;
      const running = (this.#running.get(keyId) ?? 1) - 1;
      if (running === 0) this.#running.delete(keyId);
      else this.#running.set(keyId, running);
      this.#dispatch();
    };
  }

  /** Whether a read of the key may start now: a free turn, and a reserved one only for a key below its share. */
  #mayStart(keyId: number): boolean {
    const belowShare = (this.#running.get(keyId) ?? 0) < this.limits.perKey;
    return this.#total < this.limits.total - (belowShare ? 0 : this.limits.reserve);
  }

  /** Gives free turns to waiting reads, one key after another: keys below their share first, then any. */
  #dispatch(): void {
    while (this.#total < this.limits.total && this.#waiting.size > 0) {
      let next: number | undefined;
      for (const keyId of this.#waiting.keys()) {
        if ((this.#running.get(keyId) ?? 0) < this.limits.perKey) {
          next = keyId;
          break;
        }
      }
      if (next === undefined) {
        // Only keys over their share wait: they may not take the reserved turns.
        next = this.#waiting.keys().next().value!;
        if (!this.#mayStart(next)) return;
      }
      const queue = this.#waiting.get(next)!;
      const waiter = queue.shift()!;
      // To the end of the rotation (or out of it when nothing of the key waits any more).
      this.#waiting.delete(next);
      if (queue.length > 0) this.#waiting.set(next, queue);
      waiter.start();
    }
  }

  #refuse(reader: TReader, waiting: number): AppError {
    this.shed++;
    // About when the key's queue will have drained at the recent pace: a retry then finds a turn.
    const seconds = Math.ceil((((waiting + 1) / this.limits.perKey) * this.#averageMs) / 1000);
    reader.response.headers['Retry-After'] = String(Math.min(60, Math.max(1, seconds)));
    return new AppError('TOO_MANY_ATTEMPTS');
  }
}
