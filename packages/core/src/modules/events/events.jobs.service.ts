import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { crossTenantDb } from '../../db/kysely.ts';
import { pruneEventsBefore } from './events.repository.ts';

/*
 * The worker's scheduled event jobs. An operator path (scripts/check-layers.ts OPERATOR_PATHS): each runs once for
 * every tenant, so it uses the one unscoped handle, `crossTenantDb`.
 */

/** The change feed keeps at least this long (CONTRACT); older cursors answer 410. */
export const MIN_EVENT_RETENTION_DAYS = 30;

/**
 * Records `*.published` / `*.unpublished` (reason `ended`) for vacancies and articles whose visibility changed
 * by time alone — `published_at`, `ends_at` or `expires_at` passing — in one transaction with the announced state
 * (exactly once per transition; see the vacancy and article events migration). Returns how many it recorded.
 */
export async function announceTimePassing(em: EntityManager): Promise<number> {
  const { rows } = await sql<{ announced: number }>`select careers_announce_time_passing() as announced`.execute(crossTenantDb(em));
  return rows[0]?.announced ?? 0;
}

/** Deletes the events older than the retention; returns how many. */
export async function pruneExpiredEvents(em: EntityManager, retentionDays: number): Promise<number> {
  const days = Math.max(retentionDays, MIN_EVENT_RETENTION_DAYS);
  return pruneEventsBefore(crossTenantDb(em), new Date(Date.now() - days * 24 * 3600 * 1000));
}
