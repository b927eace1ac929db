import type { PgBoss } from 'pg-boss';
import { createBoss } from './boss.ts';

/**
 * The API process's pg-boss: send-only (no maintenance, no schema changes), started on first use so that
 * processes which never enqueue never connect it.
 */
export class JobSender {
  readonly #databaseUrl: string;
  readonly #onError: (error: unknown) => void;
  #starting: Promise<PgBoss> | undefined;

  constructor(databaseUrl: string, onError: (error: unknown) => void) {
    this.#databaseUrl = databaseUrl;
    this.#onError = onError;
  }

  boss(): Promise<PgBoss> {
    this.#starting ??= this.#start().catch((error: unknown) => {
      // A failed start (database down, schema not installed) is tried again by the next caller.
      this.#starting = undefined;
      throw error;
    });
    return this.#starting;
  }

  async #start(): Promise<PgBoss> {
    const boss = createBoss(this.#databaseUrl, { role: 'sender' });
    boss.on('error', this.#onError);
    try {
      await boss.start();
    } catch (error) {
      await boss.stop({ graceful: false }).catch(() => undefined);
      throw error;
    }
    return boss;
  }

  async close(): Promise<void> {
    const starting = this.#starting;
    this.#starting = undefined;
    if (!starting) return;
    const boss = await starting.catch(() => undefined);
    await boss?.stop({ graceful: false });
  }
}
