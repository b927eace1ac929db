import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgBoss } from 'pg-boss';
import { processResumeJob, RESUME_LIMITS_ERROR } from '@careers/core/worker';
import { DOC_MIME, DOCX_MIME, PDF_MIME, docxBomb, loopingDoc, pdfBomb } from '@careers/core/testing';
import { PEOPLE, fixture, type TPipeline } from './support/pipeline.ts';
import { startWorker, startWorkerPipeline, type TWorkerPipeline } from './support/worker-process.ts';

/** Crafted resumes against the real worker process and its queue (issue 11): one upload cannot hurt the others. */

let pipeline: TPipeline;
let inspector: PgBoss;
let setup: TWorkerPipeline;

beforeAll(async () => {
  setup = await startWorkerPipeline();
  ({ pipeline, inspector } = setup);
});

afterAll(async () => {
  await setup?.close();
});

describe('the worker under crafted resumes', () => {
  it('fails the looping .doc, the DOCX bomb and the PDF bomb within 30 s without retries or a large worker, then reads an ordinary PDF', async () => {
    // The defaults of a deployment: two jobs at once, 176 MB and 20 s per parse, jobs expire after 5 minutes.
    const worker = await startWorker(pipeline.url, { WORKER_METRICS_PORT: '0', RESUME_JOB_EXPIRE_SECONDS: '300' });
    const before = worker.residentMb();
    const ownBefore = worker.ownResidentMb();
    let peak = before;
    let ownPeak = ownBefore;
    let stoppedAtLimits = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, worker.residentMb());
      ownPeak = Math.max(ownPeak, worker.ownResidentMb());
    }, 20);
    try {
      const started = Date.now();
      // The looping .doc is stopped by the parse process's limits; the DOCX bomb is refused from its zip directory
      // before anything is inflated; the PDF bomb by whichever comes first (the limits, or pdf.js refusing it).
      const limitsOrRefusal = new RegExp(
        `^(${RESUME_LIMITS_ERROR.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|The PDF .+)$`,
      );
      const expectations = [
        {
          id: await pipeline.upload({ content: loopingDoc(), mimeType: DOC_MIME, filename: 'cv.doc' }),
          error: RESUME_LIMITS_ERROR,
        },
        {
          id: await pipeline.upload({ content: docxBomb(), mimeType: DOCX_MIME, filename: 'cv.docx' }),
          error: expect.stringMatching(/^The DOCX document .+ refused\.$/),
        },
        {
          id: await pipeline.upload({ content: pdfBomb(), mimeType: PDF_MIME, filename: 'cv.pdf' }),
          error: expect.stringMatching(limitsOrRefusal),
        },
      ];
      const attacks = expectations.map(({ id }) => id);
      for (const { id, error } of expectations) {
        const row = await pipeline.waitForStatus(id, ['completed', 'failed'], 30_000 - (Date.now() - started));
        expect(row).toMatchObject({ status: 'failed', error, attempts: 1, candidate_id: null });
        if (row.error === RESUME_LIMITS_ERROR) stoppedAtLimits++;
      }
      expect(Date.now() - started).toBeLessThan(30_000);
      // Deterministic: the job itself completed (the failure is recorded on the resume), no retry was scheduled.
      for (const id of attacks) {
        const [job] = await inspector.findJobs(processResumeJob.name, { id });
        expect(job).toMatchObject({ state: 'completed', retryCount: 0 });
      }

      const ordinary = await pipeline.upload({ content: fixture(PEOPLE.pdf.file), mimeType: PDF_MIME });
      const row = await pipeline.waitForStatus(ordinary, ['completed', 'failed']);
      expect(row).toMatchObject({ status: 'completed', error: null, attempts: 1 });
      expect(
        await pipeline.count('select 1 from candidates where lower(email) = $1', [PEOPLE.pdf.expected.email]),
      ).toBe(1);
    } finally {
      clearInterval(sampler);
    }

    // The worker and its parse processes together grew by less than 400 MB at their peak.
    const figures = `worker + parse processes ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB; worker alone ${ownBefore.toFixed(0)} → ${ownPeak.toFixed(0)} MB`;
    expect(peak - before, figures).toBeLessThan(400);
    if (process.env.ABUSE_FIGURES) console.info(figures);
    expect(worker.child.exitCode).toBeNull();
    expect(stoppedAtLimits).toBeGreaterThanOrEqual(1);
    expect(worker.output().match(/"reason":"(\w+)","err".*"msg":"resume parse stopped at a limit"/g)).toHaveLength(
      stoppedAtLimits,
    );
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 90_000);
});
