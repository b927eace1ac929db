import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { fromKysely } from 'pg-boss';
import { tenantKysely } from '../../db/kysely.ts';
import { AppError } from '../../lib/errors.ts';
import { isDatabaseUnavailable } from '../../lib/database-errors.ts';
import { sendJob } from '../../jobs/define-job.ts';
import { processResumeJob } from '../../jobs/process-resume.job.ts';
import type { JobSender } from '../../jobs/sender.ts';

export type TAcceptResume = {
  tenantId: number;
  userId: number;
  filename: string;
  mimeType: string;
  content: Buffer;
  createIntake: boolean;
};

/**
 * Stores an uploaded resume and queues its processing in ONE transaction: the bytes, the processing record
 * (queued) and the pg-boss job commit together or not at all, so there is never a job without a record or a
 * record nobody will process. The job id is the processing id.
 *
 * @throws AppError PROCESSING_FAILED when either could not be written (the cause goes to the logs only), except when
 *   the database is unavailable (503).
 */
export async function acceptResume(em: EntityManager, jobs: JobSender, resume: TAcceptResume): Promise<string> {
  const processingId = randomUUID();
  try {
    // Started before the transaction, so a slow first start does not hold one open.
    const boss = await jobs.boss();
    await em.transactional(async (tx) => {
      // The tenant's scoped handle (the plugin refuses a row of another tenant); the job rides the same transaction.
      const db = tenantKysely(tx, resume.tenantId);
      await db
        .insertInto('resume_processings')
        .values({
          id: processingId,
          tenant_id: resume.tenantId,
          user_id: resume.userId,
          status: 'queued',
          filename: resume.filename,
          mime_type: resume.mimeType,
          size: resume.content.byteLength,
          content: resume.content,
          create_intake: resume.createIntake,
        })
        .execute();
      await sendJob(boss, processResumeJob, { processingId, tenantId: resume.tenantId }, { db: fromKysely(db), id: processingId });
    });
  } catch (error) {
    // A database that went away (a failover) is 503 with Retry-After like everywhere else: the client may send again.
    if (isDatabaseUnavailable(error)) throw error;
    throw new AppError('PROCESSING_FAILED', { cause: error });
  }
  return processingId;
}
