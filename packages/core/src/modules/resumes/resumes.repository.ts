import { sql } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import type { TResumeProcessingRow } from './resume-processing.dto.ts';

/**
 * The tenant's country as an ISO 3166-1 alpha-2 code (upper case), for reading phone numbers written without a
 * country code. Tenants have no country of their own: it is the most common country of their locations (ties go
 * to the first code alphabetically), or null when no location has one.
 */
export async function findTenantRegion(db: TDb): Promise<string | null> {
  const row = await db
    .selectFrom('locations')
    .select(sql<string>`upper(country_code)`.as('region'))
    .where('country_code', 'is not', null)
    .groupBy(sql`upper(country_code)`)
    .orderBy(sql`count(*)`, 'desc')
    .orderBy(sql`upper(country_code)`)
    .limit(1)
    .executeTakeFirst();
  return row && /^[A-Z]{2}$/.test(row.region) ? row.region : null;
}

/** A resume processing of the tenant by its id (a lower-case UUID). */
export async function findResumeProcessing(db: TDb, processingId: string): Promise<TResumeProcessingRow | undefined> {
  return db
    .selectFrom('resume_processings')
    .select(['id', 'status', 'candidate_id', 'intake_id', 'error', 'created_at', 'updated_at'])
    .where('id', '=', processingId)
    .executeTakeFirst();
}
