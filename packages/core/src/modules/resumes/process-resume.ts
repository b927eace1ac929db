import type { MikroORM } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { recordEvent } from '../events/events.service.ts';
import { tenantKysely, type TDb } from '../../db/kysely.ts';
import type { Logger } from '../../lib/logger.ts';
import type { TProcessResumePayload } from '../../jobs/process-resume.job.ts';
import { detectResumeType } from './resume-file.ts';
import { ResumeParseError } from './resume-text.ts';
import { parseResume, type TParsedResume, type TParseResumeOptions } from './resume-parse.ts';
import { saveResumeCandidate } from './resume-candidate.ts';
import { ResumeLimitError } from './resume-sandbox.ts';
import { findTenantRegion } from './resumes.repository.ts';
import type { TResumeKind } from './resume-file.ts';

export type TProcessResumeOutcome =
  | { status: 'completed'; candidateId: number; intakeId: number | null; createdCandidate: boolean }
  | { status: 'failed'; error: string }
  /** Nothing to do: the record is gone, or already finished by an earlier run of the same job. */
  | { status: 'skipped'; reason: 'missing' | 'finished' };

export type TProcessResumeOptions = {
  log: Logger;
  /** Aborted when pg-boss gives up on the attempt (expiry) or the worker stops. */
  signal?: AbortSignal;
  /** Runs once the record is marked processing, before the file is read (tests use it to hold a job mid-way). */
  beforeExtract?: (signal: AbortSignal | undefined) => Promise<void>;
  /**
   * Reads the resume: `parseResume`'s signature. The worker passes its ResumeSandbox's `parse` (a separate process
   * with memory and time limits); without it the file is read in this process (tests, tools).
   */
  parse?: (bytes: Uint8Array, kind: TResumeKind, options: TParseResumeOptions) => Promise<TParsedResume>;
};

/** Shown when the retries of a job are used up (the cause was transient, e.g. the database was unavailable). */
export const EXHAUSTED_ERROR = 'The resume could not be processed after several attempts. Please upload it again.';

function finishedStatus(status: string): boolean {
  return status === 'completed' || status === 'failed';
}

async function markFailed(db: TDb, processingId: string, error: string): Promise<boolean> {
  const result = await db
    .updateTable('resume_processings')
    .set({ status: 'failed', error, updated_at: sql<Date>`now()` })
    .where('id', '=', processingId)
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The resume job: reads the stored file, checks its real type, extracts the candidate's details and — in one
 * transaction with the status change to completed — creates or updates the candidate, associates the user and
 * creates the intake that was asked for.
 *
 * Idempotent: a record that is already completed or failed is left alone, and the final transaction re-checks
 * the status under a row lock, so a job run twice (a retry after a crash, an expired attempt that still finishes)
 * yields one candidate and one intake.
 *
 * A file that is not its declared type, cannot be parsed, or overruns the parse limits (ResumeLimitError) ends as
 * `failed` with a readable error and returns normally (no retry helps). Anything else (the database unavailable, …) is thrown, for pg-boss to retry.
 * Never logs the file, its text or the extracted details.
 */
export async function processResume(orm: MikroORM, payload: TProcessResumePayload, options: TProcessResumeOptions): Promise<TProcessResumeOutcome> {
  const { processingId, tenantId } = payload;
  const em = orm.em.fork();
  const db = tenantKysely(em, tenantId);

  const started = await db
    .updateTable('resume_processings')
    .set((eb) => ({ status: 'processing', attempts: eb('attempts', '+', 1), updated_at: sql<Date>`now()` }))
    .where('id', '=', processingId)
    .where('status', 'in', ['queued', 'processing'])
    .returning(['mime_type', 'user_id', 'create_intake'])
    .executeTakeFirst();
  if (!started) {
    const exists = await db.selectFrom('resume_processings').select('status').where('id', '=', processingId).executeTakeFirst();
    return { status: 'skipped', reason: exists ? 'finished' : 'missing' };
  }

  await options.beforeExtract?.(options.signal);
  options.signal?.throwIfAborted();

  const file = await db.selectFrom('resume_processings').select('content').where('id', '=', processingId).executeTakeFirst();
  if (!file) return { status: 'skipped', reason: 'missing' };
  const bytes = new Uint8Array(file.content.buffer, file.content.byteOffset, file.content.byteLength);

  const type = await detectResumeType(bytes, started.mime_type);
  if (!type.ok) {
    await markFailed(db, processingId, type.error);
    return { status: 'failed', error: type.error };
  }
  const region = await findTenantRegion(db);
  const parse = options.parse ?? parseResume;
  let fields: TParsedResume;
  try {
    fields = await parse(bytes, type.kind, { signal: options.signal, ...(region === null ? {} : { defaultRegion: region }) });
  } catch (error) {
    // A refusal or a stop at the sandbox's limits is the file's doing: the same file fails the same way again.
    if (!(error instanceof ResumeParseError)) throw error;
    if (error instanceof ResumeLimitError) {
      options.log.warn({ processing_id: processingId, reason: error.reason, err: error.cause }, 'resume parse stopped at a limit');
    } else {
      options.log.info({ err: error.cause }, 'resume could not be parsed');
    }
    await markFailed(db, processingId, error.message);
    return { status: 'failed', error: error.message };
  }

  return em.transactional(async (tx) => {
    const txDb = tenantKysely(tx, tenantId);
    // The row lock makes a concurrent second run of this job wait here, then see the first run's outcome.
    const current = await txDb
      .selectFrom('resume_processings')
      .select('status')
      .where('id', '=', processingId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return { status: 'skipped', reason: 'missing' } as const;
    if (finishedStatus(current.status)) return { status: 'skipped', reason: 'finished' } as const;

    const { candidateId, created } = await saveResumeCandidate(txDb, tenantId, started.user_id, fields);
    await recordEvent(txDb, { tenantId, type: created ? 'candidate.created' : 'candidate.updated', object: 'candidate', objectId: candidateId, data: { resume_id: processingId } });
    let intakeId: number | null = null;
    if (started.create_intake) {
      const intake = await txDb
        .insertInto('intakes')
        .values({ id: sql<number>`default`, tenant_id: tenantId, candidate_id: candidateId, user_id: started.user_id, status: 'open' })
        .returning('id')
        .executeTakeFirstOrThrow();
      intakeId = intake.id;
    }
    await txDb
      .updateTable('resume_processings')
      .set({ status: 'completed', candidate_id: candidateId, intake_id: intakeId, error: null, updated_at: sql<Date>`now()` })
      .where('id', '=', processingId)
      .execute();
    return { status: 'completed', candidateId, intakeId, createdCandidate: created } as const;
  });
}

/**
 * A job whose retries are used up lands in the dead-letter queue; its record must not stay `processing`
 * forever. Marks it failed unless it finished after all.
 */
export async function markResumeExhausted(orm: MikroORM, payload: TProcessResumePayload): Promise<boolean> {
  return markFailed(tenantKysely(orm.em.fork(), payload.tenantId), payload.processingId, EXHAUSTED_ERROR);
}
