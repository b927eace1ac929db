import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgBoss } from 'pg-boss';
import { createLogger } from '@careers/core';
import { createBoss, ensureQueues, jobDefinitions, processResumeJob, EXHAUSTED_ERROR } from '@careers/core/worker';
import { DOC_MIME, DOCX_MIME, PDF_MIME } from '@careers/core/testing';
import { startResumeWorker, type TResumeWorker } from '../src/resume-worker.ts';
import { PEOPLE, USER_ID, buildPdf, fixture, startPipeline, type TPipeline } from './support/pipeline.ts';

let pipeline: TPipeline;
let boss: PgBoss;
let resumeWorker: TResumeWorker | undefined;

beforeAll(async () => {
  pipeline = await startPipeline();
  boss = createBoss(pipeline.url, { role: 'worker', superviseIntervalSeconds: 1 });
  await boss.start();
  // Quick retries, so exhausting them fits in a test.
  await ensureQueues(boss, jobDefinitions, { retryLimit: 2, retryDelay: 1 });
  resumeWorker = await startResumeWorker({
    orm: pipeline.orm,
    boss,
    log: createLogger('worker-test'),
    concurrency: 2,
    pollingIntervalSeconds: 0.5,
  });
});

afterAll(async () => {
  await boss?.stop({ graceful: true, timeout: 5000 });
  resumeWorker?.close();
  await pipeline?.close();
});

async function job(id: string) {
  const [found] = await boss.findJobs(processResumeJob.name, { id });
  return found;
}

/** Makes the next `times` intake inserts fail, like a database that is briefly unavailable. */
async function failIntakeInserts(times: number): Promise<() => Promise<void>> {
  // A sequence, because nextval survives the rollback of the failing transaction (a counter row would not).
  await pipeline.sql.query('drop sequence if exists outage; create sequence outage');
  await pipeline.sql.query(`create or replace function fail_intake() returns trigger language plpgsql as $$
    begin
      if nextval('outage') <= ${times} then raise exception 'database unavailable'; end if;
      return new;
    end $$`);
  await pipeline.sql.query(
    'create trigger fail_intake before insert on intakes for each row execute function fail_intake()',
  );
  return async () => {
    await pipeline.sql.query('drop trigger if exists fail_intake on intakes');
  };
}

describe('the resume worker', () => {
  it('turns uploaded PDF, DOCX and DOC resumes into completed candidates', async () => {
    const uploads = [
      { mime: PDF_MIME, person: PEOPLE.pdf },
      { mime: DOCX_MIME, person: PEOPLE.docx },
      { mime: DOC_MIME, person: PEOPLE.doc },
    ];
    const ids = await Promise.all(
      uploads.map(({ mime, person }) => pipeline.upload({ content: fixture(person.file), mimeType: mime })),
    );
    for (const [index, id] of ids.entries()) {
      const row = await pipeline.waitForStatus(id, ['completed', 'failed']);
      expect(row).toMatchObject({ status: 'completed', error: null, attempts: 1 });
      const { rows } = await pipeline.sql.query(
        'select first_name, last_name, email, phone, status from candidates where id = $1',
        [row.candidate_id],
      );
      const expected = uploads[index]!.person.expected;
      expect(rows[0]).toEqual({
        first_name: expected.firstName,
        last_name: expected.lastName,
        email: expected.email,
        phone: expected.phone,
        status: 'potential',
      });
      const users = await pipeline.sql.query('select user_id from candidate_users where candidate_id = $1', [
        row.candidate_id,
      ]);
      expect(users.rows).toEqual([{ user_id: USER_ID }]);
      await expect.poll(async () => (await job(id))?.state).toBe('completed');
    }
  });

  it('fails a file that is not its declared type at once, without retries', async () => {
    const id = await pipeline.upload({ content: fixture(PEOPLE.docx.file), mimeType: PDF_MIME });
    const row = await pipeline.waitForStatus(id, ['completed', 'failed']);
    expect(row).toMatchObject({ status: 'failed', candidate_id: null, attempts: 1 });
    expect(row.error).toMatch(/^The file is not a PDF document \(detected: /);
    await expect.poll(async () => (await job(id))?.state).toBe('completed');
    expect((await job(id))?.retryCount).toBe(0);
  });

  it('retries a transient failure with backoff and completes once', async () => {
    const restore = await failIntakeInserts(1);
    try {
      const started = Date.now();
      const id = await pipeline.upload({
        content: await buildPdf(['Ines Duarte', 'ines.duarte@example.pt']),
        mimeType: PDF_MIME,
        createIntake: true,
      });
      const row = await pipeline.waitForStatus(id, ['completed', 'failed']);
      expect(row).toMatchObject({ status: 'completed', error: null, attempts: 2 });
      // The retry waited for its backoff (retryDelay 1 s here) instead of hammering the database.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(await pipeline.count(`select 1 from candidates where email = 'ines.duarte@example.pt'`)).toBe(1);
      expect(await pipeline.count('select 1 from intakes where candidate_id = $1', [row.candidate_id])).toBe(1);
      await expect.poll(async () => (await job(id))?.state).toBe('completed');
      expect((await job(id))?.retryCount).toBe(1);
    } finally {
      await restore();
    }
  });

  it('sends a job whose retries are exhausted to the dead-letter queue, which marks its record failed', async () => {
    const restore = await failIntakeInserts(1_000_000);
    try {
      const id = await pipeline.upload({
        content: await buildPdf(['Olek Nowak', 'olek.nowak@example.pl']),
        mimeType: PDF_MIME,
        createIntake: true,
      });
      const row = await pipeline.waitForStatus(id, ['completed', 'failed'], 45_000);
      expect(row).toMatchObject({
        status: 'failed',
        error: EXHAUSTED_ERROR,
        candidate_id: null,
        intake_id: null,
        attempts: 3,
      });
      expect(await pipeline.count(`select 1 from candidates where email = 'olek.nowak@example.pl'`)).toBe(0);
      const original = await job(id);
      expect(original).toMatchObject({ state: 'failed', retryCount: 2 });
      const dead = await boss.findJobs(processResumeJob.deadLetter, { data: { processingId: id } });
      expect(dead).toHaveLength(1);
      await expect
        .poll(async () => (await boss.findJobs(processResumeJob.deadLetter, { id: dead[0]!.id }))[0]?.state)
        .toBe('completed');
    } finally {
      await restore();
    }
  }, 60_000);
});
