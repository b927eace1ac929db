import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgBoss } from 'pg-boss';
import { createLogger, poolOf, createMetrics, type TMetrics } from '@careers/core';
import { createBoss, ensureQueues, jobDefinitions, RESUME_LIMITS_ERROR } from '@careers/core/worker';
import { DOC_MIME, DOCX_MIME, PDF_MIME, loopingDoc } from '@careers/core/testing';
import { startResumeWorker, type TResumeWorker } from '../src/resume-worker.ts';
import { startMetricsServer, type TMetricsServer } from '../src/metrics-server.ts';
import { networkInterfaces } from 'node:os';
import { workerEnv } from '../src/env.ts';
import { PEOPLE, fixture, startPipeline, type TPipeline } from './support/pipeline.ts';

/** The worker's GET /metrics (issue 7): resume jobs by outcome and duration, and the database pool. */

let pipeline: TPipeline;
let boss: PgBoss;
let resumeWorker: TResumeWorker | undefined;
let metrics: TMetrics;
let server: TMetricsServer | undefined;

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function scrape(path = '/metrics'): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`http://127.0.0.1:${server?.port}${path}`);
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

beforeAll(async () => {
  pipeline = await startPipeline();
  const log = createLogger('worker-metrics-test');
  metrics = createMetrics();
  const pool = await poolOf(pipeline.orm);
  metrics.observePool(() => pool);
  server = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1', log });
  boss = createBoss(pipeline.url, { role: 'worker', superviseIntervalSeconds: 1 });
  await boss.start();
  await ensureQueues(boss, jobDefinitions);
  resumeWorker = await startResumeWorker({
    orm: pipeline.orm,
    boss,
    log,
    concurrency: 1,
    pollingIntervalSeconds: 0.5,
    metrics,
  });
});

afterAll(async () => {
  await boss?.stop({ graceful: true, timeout: 5000 });
  resumeWorker?.close();
  await server?.close();
  await pipeline?.close();
});

describe('the worker metrics endpoint', () => {
  it('counts resume jobs by outcome and times them', async () => {
    const completed = await pipeline.upload({ content: fixture(PEOPLE.pdf.file), mimeType: PDF_MIME });
    // A DOCX declared as a PDF: the job ends as failed (no retry helps).
    const failed = await pipeline.upload({ content: fixture(PEOPLE.docx.file), mimeType: PDF_MIME });
    // The same resume again: same candidate, completed again.
    const again = await pipeline.upload({ content: fixture(PEOPLE.docx.file), mimeType: DOCX_MIME });
    for (const id of [completed, failed, again]) await pipeline.waitForStatus(id, ['completed', 'failed']);

    await expect
      .poll(async () => sample((await scrape()).text, 'careers_resume_jobs_total{outcome="completed"}'))
      .toBe(2);
    const { status, contentType, text } = await scrape();
    expect(status).toBe(200);
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(sample(text, 'careers_resume_jobs_total{outcome="failed"}')).toBe(1);
    expect(sample(text, 'careers_resume_jobs_total{outcome="retry"}')).toBe(0);
    expect(sample(text, 'careers_resume_job_duration_seconds_count{outcome="completed"}')).toBe(2);
    expect(sample(text, 'careers_resume_job_duration_seconds_count{outcome="failed"}')).toBe(1);
    expect(sample(text, 'careers_resume_job_duration_seconds_sum{outcome="completed"}')).toBeGreaterThan(0);
    expect(sample(text, 'careers_resume_job_duration_seconds_bucket{le="+Inf",outcome="completed"}')).toBe(2);
  });

  it('counts resume parses stopped by the sandbox, by reason', async () => {
    const looping = await pipeline.upload({ content: loopingDoc(), mimeType: DOC_MIME });
    expect(await pipeline.waitForStatus(looping, ['completed', 'failed'])).toMatchObject({
      status: 'failed',
      error: RESUME_LIMITS_ERROR,
    });
    const { text } = await scrape();
    expect(sample(text, 'careers_resume_parse_stops_total{reason="memory"}')).toBe(1);
    expect(sample(text, 'careers_resume_parse_stops_total{reason="timeout"}')).toBe(0);
    expect(sample(text, 'careers_resume_jobs_total{outcome="failed"}')).toBe(2);
  });

  it('reports the database pool', async () => {
    const { text } = await scrape();
    const total = sample(text, 'careers_db_pool_connections{state="total"}');
    expect(total).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'careers_db_pool_connections{state="idle"}')).toBeLessThanOrEqual(total);
    expect(sample(text, 'careers_db_pool_max_connections')).toBe(10);
    expect(text).toMatch(/^careers_db_pool_waiting_requests \d+$/m);
  });

  it('answers /livez and nothing else', async () => {
    expect(await scrape('/livez')).toMatchObject({ status: 200, text: '{"status":"ok"}' });
    expect(await scrape('/metrics/../jobs')).toMatchObject({ status: 404 });
    expect(await scrape('/')).toMatchObject({ status: 404 });
  });

  it('keeps the worker running when its port is taken', async () => {
    const taken = await startMetricsServer(metrics, {
      port: server!.port,
      host: '127.0.0.1',
      log: createLogger('worker-metrics-test'),
    });
    expect(taken).toBeUndefined();
    expect((await scrape()).status).toBe(200);
  });

  it('listens on 127.0.0.1 unless METRICS_HOST or WORKER_METRICS_HOST says otherwise', async () => {
    expect(workerEnv({}).WORKER_METRICS_HOST).toBe('127.0.0.1');
    expect(workerEnv({ METRICS_HOST: '0.0.0.0' }).WORKER_METRICS_HOST).toBe('0.0.0.0');
    expect(workerEnv({ METRICS_HOST: '0.0.0.0', WORKER_METRICS_HOST: '::1' }).WORKER_METRICS_HOST).toBe('::1');
    const local = await startMetricsServer(metrics, {
      port: 0,
      host: workerEnv({}).WORKER_METRICS_HOST,
      log: createLogger('worker-metrics-test'),
    });
    try {
      expect((await fetch(`http://127.0.0.1:${local?.port}/metrics`)).status).toBe(200);
      const other = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && !address.internal && address.family === 'IPv4')?.address;
      if (other)
        await expect(
          fetch(`http://${other}:${local?.port}/metrics`, { signal: AbortSignal.timeout(2_000) }),
        ).rejects.toThrow();
    } finally {
      await local?.close();
    }
  });
});
