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

/** A new resume processing, queued, with the uploaded file. */
export async function insertResumeProcessing(
  db: TDb,
  row: {
    id: string;
    tenantId: number;
    userId: number;
    filename: string;
    mimeType: string;
    content: Buffer;
    createIntake: boolean;
  },
): Promise<void> {
  await db
    .insertInto('resume_processings')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      user_id: row.userId,
      status: 'queued',
      filename: row.filename,
      mime_type: row.mimeType,
      size: row.content.byteLength,
      content: row.content,
      create_intake: row.createIntake,
    })
    .execute();
}

/** Marks a queued (or interrupted) processing as processing and counts the attempt; undefined when it is not one. */
export async function startResumeProcessing(
  db: TDb,
  processingId: string,
): Promise<{ mime_type: string; user_id: number; create_intake: boolean } | undefined> {
  return db
    .updateTable('resume_processings')
    .set((eb) => ({ status: 'processing', attempts: eb('attempts', '+', 1), updated_at: sql<Date>`now()` }))
    .where('id', '=', processingId)
    .where('status', 'in', ['queued', 'processing'])
    .returning(['mime_type', 'user_id', 'create_intake'])
    .executeTakeFirst();
}

/** The status of a processing; with `lock`, its row is locked until the transaction ends. */
export async function findResumeProcessingStatus(
  db: TDb,
  processingId: string,
  options: { lock?: boolean } = {},
): Promise<string | undefined> {
  let query = db.selectFrom('resume_processings').select('status').where('id', '=', processingId);
  if (options.lock) query = query.forUpdate();
  return (await query.executeTakeFirst())?.status;
}

/** The stored file of a processing. */
export async function findResumeContent(db: TDb, processingId: string): Promise<Uint8Array | undefined> {
  return (await db.selectFrom('resume_processings').select('content').where('id', '=', processingId).executeTakeFirst())
    ?.content;
}

/** Marks a processing failed unless it has finished; whether it did. */
export async function markResumeProcessingFailed(db: TDb, processingId: string, error: string): Promise<boolean> {
  const result = await db
    .updateTable('resume_processings')
    .set({ status: 'failed', error, updated_at: sql<Date>`now()` })
    .where('id', '=', processingId)
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks a processing completed with the candidate (and intake) it made. */
export async function completeResumeProcessing(
  db: TDb,
  processingId: string,
  outcome: { candidateId: number; intakeId: number | null },
): Promise<void> {
  await db
    .updateTable('resume_processings')
    .set({
      status: 'completed',
      candidate_id: outcome.candidateId,
      intake_id: outcome.intakeId,
      error: null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', processingId)
    .execute();
}

/** An open intake of a candidate for a user; its id. */
export async function insertIntake(
  db: TDb,
  intake: { tenantId: number; candidateId: number; userId: number },
): Promise<number> {
  const row = await db
    .insertInto('intakes')
    .values({
      id: sql<number>`default`,
      tenant_id: intake.tenantId,
      candidate_id: intake.candidateId,
      user_id: intake.userId,
      status: 'open',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
