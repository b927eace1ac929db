import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kyselyOf } from '../../db/kysely.ts';

/**
 * Records `*.published` / `*.unpublished` (reason `ended`) for vacancies and articles whose visibility changed
 * by time alone — `published_at`, `ends_at` or `expires_at` passing — in one transaction with the announced state
 * (exactly once per transition; see the vacancy and article events migration). Returns how many it recorded.
 */
export async function announceTimePassing(em: EntityManager): Promise<number> {
  const { rows } = await sql<{ announced: number }>`select careers_announce_time_passing() as announced`.execute(kyselyOf(em));
  return rows[0]?.announced ?? 0;
}
