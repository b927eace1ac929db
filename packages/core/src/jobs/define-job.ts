import type { Db, PgBoss } from 'pg-boss';
import type { z } from 'zod';

/** How pg-boss runs the jobs of one queue (inherited by every job sent to it). */
export type TQueueSettings = {
  /** A job active for longer than this is failed (and retried): it bounds a stuck or killed attempt. */
  expireInSeconds: number;
  /** A worker that stops sending heartbeats this long (≥ 10) has died: its job is retried. */
  heartbeatSeconds: number | null;
  retryLimit: number;
  /** Seconds before the first retry; doubled per attempt (with jitter) up to `retryDelayMax`. */
  retryDelay: number;
  retryDelayMax: number;
};

export type TJobDefinition<TPayload> = {
  /** The pg-boss queue. */
  name: string;
  /** Where jobs go when their retries are exhausted. */
  deadLetter: string;
  payload: z.ZodType<TPayload>;
  queue: TQueueSettings;
};

/** One job: its queue, its payload (ids only, never contents) and how it is retried. */
export function defineJob<TPayload>(definition: {
  name: string;
  payload: z.ZodType<TPayload>;
  queue: TQueueSettings;
}): TJobDefinition<TPayload> {
  return { ...definition, deadLetter: `${definition.name}.dead` };
}

/** pg-boss queue options of a definition (with optional overrides, e.g. shorter expiry in tests). */
export function queueOptions(definition: TJobDefinition<unknown>, overrides: Partial<TQueueSettings> = {}) {
  const settings = { ...definition.queue, ...overrides };
  return {
    expireInSeconds: settings.expireInSeconds,
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelay,
    retryBackoff: true,
    retryDelayMax: settings.retryDelayMax,
    ...(settings.heartbeatSeconds === null ? {} : { heartbeatSeconds: settings.heartbeatSeconds }),
    deadLetter: definition.deadLetter,
  };
}

/** Dead letters are only marked and kept; a few quick retries cover a passing database hiccup. */
const DEAD_LETTER_OPTIONS = {
  expireInSeconds: 60,
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 120,
};

/**
 * Creates the queues of the definitions (dead-letter queue first: pg-boss requires it to exist) and brings their
 * options up to date. Idempotent; run by `careers migrate` and at worker start.
 */
export async function ensureQueues(
  boss: PgBoss,
  definitions: readonly TJobDefinition<unknown>[],
  overrides: Partial<TQueueSettings> = {},
): Promise<void> {
  for (const definition of definitions) {
    await boss.createQueue(definition.deadLetter, DEAD_LETTER_OPTIONS);
    await boss.updateQueue(definition.deadLetter, DEAD_LETTER_OPTIONS);
    const options = queueOptions(definition, overrides);
    await boss.createQueue(definition.name, options);
    await boss.updateQueue(definition.name, { ...options, heartbeatSeconds: options.heartbeatSeconds ?? null });
  }
}

/**
 * Enqueues a job with a checked payload. Pass `db` to write the job in the caller's transaction (it then commits
 * or rolls back with the caller's rows); `id` makes the job id meaningful (and a second send with it a no-op).
 */
export async function sendJob<TPayload extends object>(
  boss: PgBoss,
  definition: TJobDefinition<TPayload>,
  payload: TPayload,
  options: { db?: Db; id?: string } = {},
): Promise<string> {
  const data = definition.payload.parse(payload);
  const id = await boss.send(definition.name, data, {
    ...(options.db ? { db: options.db } : {}),
    ...(options.id ? { id: options.id } : {}),
  });
  if (id === null) throw new Error(`job ${definition.name} was not created`);
  return id;
}
