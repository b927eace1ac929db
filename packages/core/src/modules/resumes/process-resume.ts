import type { MikroORM } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/events.service.ts';
import { serviceContext } from '../service-context.ts';
import type { Logger } from '../../lib/logger.ts';
import type { TProcessResumePayload } from '../../jobs/process-resume.job.ts';
import { detectResumeType } from './resume-file.ts';
import { ResumeParseError } from './resume-text.ts';
import { parseResume, type TParsedResume, type TParseResumeOptions } from './resume-parse.ts';
import { saveResumeCandidate } from './resume-candidate.ts';
import { ResumeLimitError } from './resume-sandbox.ts';
import {
  completeResumeProcessing,
  findResumeContent,
  findResumeProcessingStatus,
  findTenantRegion,
  insertIntake,
  markResumeProcessingFailed,
  startResumeProcessing,
} from './resumes.repository.ts';
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
export async function processResume(
  orm: MikroORM,
  payload: TProcessResumePayload,
  options: TProcessResumeOptions,
): Promise<TProcessResumeOutcome> {
  const { processingId, tenantId } = payload;
  const { em, db } = serviceContext(orm.em.fork(), tenantId);

  const started = await startResumeProcessing(db, processingId);
  if (!started) {
    const exists = await findResumeProcessingStatus(db, processingId);
    return { status: 'skipped', reason: exists === undefined ? 'missing' : 'finished' };
  }

  await options.beforeExtract?.(options.signal);
  options.signal?.throwIfAborted();

  const content = await findResumeContent(db, processingId);
  if (!content) return { status: 'skipped', reason: 'missing' };
  const bytes = new Uint8Array(content.buffer, content.byteOffset, content.byteLength);

  const type = await detectResumeType(bytes, started.mime_type);
  if (!type.ok) {
    await markResumeProcessingFailed(db, processingId, type.error);
    return { status: 'failed', error: type.error };
  }
  const region = await findTenantRegion(db);
  const parse = options.parse ?? parseResume;
  let fields: TParsedResume;
  try {
    fields = await parse(bytes, type.kind, {
      signal: options.signal,
      ...(region === null ? {} : { defaultRegion: region }),
    });
  } catch (error) {
    // A refusal or a stop at the sandbox's limits is the file's doing: the same file fails the same way again.
    if (!(error instanceof ResumeParseError)) throw error;
    if (error instanceof ResumeLimitError) {
      options.log.warn(
        { processing_id: processingId, reason: error.reason, err: error.cause },
        'resume parse stopped at a limit',
      );
    } else {
      options.log.info({ err: error.cause }, 'resume could not be parsed');
    }
    await markResumeProcessingFailed(db, processingId, error.message);
    return { status: 'failed', error: error.message };
  }

  return em.transactional(async (tx) => {
    const txCtx = serviceContext(tx, tenantId);
    // The row lock makes a concurrent second run of this job wait here, then see the first run's outcome.
    const current = await findResumeProcessingStatus(txCtx.db, processingId, { lock: true });
    if (current === undefined) return { status: 'skipped', reason: 'missing' } as const;
    if (finishedStatus(current)) return { status: 'skipped', reason: 'finished' } as const;

    const { candidateId, created } = await saveResumeCandidate(txCtx.db, tenantId, started.user_id, fields);
    await recordEvent(txCtx, {
      type: created ? 'candidate.created' : 'candidate.updated',
      object: 'candidate',
      objectId: candidateId,
      data: { resume_id: processingId },
    });
    const intakeId = started.create_intake
      ? await insertIntake(txCtx.db, { tenantId, candidateId, userId: started.user_id })
      : null;
    await completeResumeProcessing(txCtx.db, processingId, { candidateId, intakeId });
    return { status: 'completed', candidateId, intakeId, createdCandidate: created } as const;
  });
}

/**
 * A job whose retries are used up lands in the dead-letter queue; its record must not stay `processing`
 * forever. Marks it failed unless it finished after all.
 */
export async function markResumeExhausted(orm: MikroORM, payload: TProcessResumePayload): Promise<boolean> {
  return markResumeProcessingFailed(
    serviceContext(orm.em.fork(), payload.tenantId).db,
    payload.processingId,
    EXHAUSTED_ERROR,
  );
}
