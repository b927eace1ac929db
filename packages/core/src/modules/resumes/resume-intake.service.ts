import { randomUUID } from 'node:crypto';
import { fromKysely } from 'pg-boss';
import { AppError } from '../../lib/errors.ts';
import { isDatabaseUnavailable } from '../../lib/database-errors.ts';
import { sendJob } from '../../jobs/define-job.ts';
import { processResumeJob } from '../../jobs/process-resume.job.ts';
import type { JobSender } from '../../jobs/sender.ts';
import { serviceContext, type TServiceContextWithEm } from '../service-context.ts';
import { findResumeProcessing, insertResumeProcessing } from './resumes.repository.ts';
import { retryWhenSessionLost } from '../../db/fresh-connection.ts';

/** An uploaded resume, for the context's tenant. */
export type TAcceptResume = {
  userId: number;
  filename: string;
  mimeType: string;
  content: Buffer;
  createIntake: boolean;
};

/** Intake needs a transaction (`em`) and the job sender. */
export type TResumeIntakeContext = TServiceContextWithEm & { services: { jobs: JobSender } };

/**
 * Stores an uploaded resume and queues its processing in ONE transaction: the bytes, the processing record
 * (queued) and the pg-boss job commit together or not at all, so there is never a job without a record or a
 * record nobody will process. The job id is the processing id.
 *
 * @throws AppError PROCESSING_FAILED when either could not be written (the cause goes to the logs only), except when
 *   the database is unavailable (503).
 */
export async function acceptResume(ctx: TResumeIntakeContext, resume: TAcceptResume): Promise<string> {
  const processingId = randomUUID();
  const tenantId = ctx.tenant.id;
  try {
    // Started before the transaction, so a slow first start does not hold one open.
    const boss = await ctx.services.jobs.boss();
    // A switchover that ends the session mid-transaction is waited out: the transaction runs again on the new primary.
    await retryWhenSessionLost((again) =>
      ctx.em.transactional(async (tx) => {
        // The tenant's scoped handle (the plugin refuses a row of another tenant); the job rides the same transaction.
        const { db } = serviceContext(tx, tenantId);
        // The session was lost at the COMMIT of an attempt that did commit: record and job are there.
        if (again && (await findResumeProcessing(db, processingId))) return;
        await insertResumeProcessing(db, { id: processingId, tenantId, ...resume });
        await sendJob(boss, processResumeJob, { processingId, tenantId }, { db: fromKysely(db), id: processingId });
      }),
    );
  } catch (error) {
    // A database that went away (a failover) is 503 with Retry-After like everywhere else: the client may send again.
    if (isDatabaseUnavailable(error)) throw error;
    throw new AppError('PROCESSING_FAILED', { cause: error });
  }
  return processingId;
}
