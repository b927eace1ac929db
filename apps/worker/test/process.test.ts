import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { processResumeJob } from '@careers/core/worker';
import { DOCX_MIME, PDF_MIME } from '@careers/core/testing';
import { WORKER_NODE_FLAGS } from '@careers/core';
import { PEOPLE, fixture, type TPipeline } from './support/pipeline.ts';
import {
  WORKER_MAIN as MAIN,
  startWorker as startWorkerProcess,
  startWorkerPipeline,
  type TWorkerPipeline,
} from './support/worker-process.ts';

let pipeline: TPipeline;
let inspector: PgBoss;
let setup: TWorkerPipeline;

const startWorker = (env: Record<string, string>) => startWorkerProcess(pipeline.url, env);

beforeAll(async () => {
  setup = await startWorkerPipeline();
  ({ pipeline, inspector } = setup);
});

afterAll(async () => {
  await setup?.close();
});

describe('the worker process', () => {
  it('refuses to start without the job-queue schema (`careers migrate` installs it)', async () => {
    const { rows } = await pipeline.sql.query(`select current_database() as name`);
    const bare = new URL(pipeline.url);
    // A database with the product's tables but without pg-boss: create it from the test template.
    bare.pathname = `/${(rows[0] as { name: string }).name}_bare`;
    await pipeline.sql.query(`create database ${bare.pathname.slice(1)} template careers_test_template`);
    const dropper = new pg.Client({ connectionString: bare.toString() });
    await dropper.connect();
    await dropper.query('drop schema if exists pgboss cascade');
    await dropper.end();
    const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, MAIN], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: bare.toString() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(output).toContain('run `pnpm careers migrate` first');
    // It did not create the schema itself: deployment units never migrate.
    const bareClient = new pg.Client({ connectionString: bare.toString() });
    await bareClient.connect();
    const schemas = await bareClient.query(`select 1 from pg_namespace where nspname = 'pgboss'`);
    await bareClient.end();
    expect(schemas.rows).toHaveLength(0);
  });

  it('leaves a job to be picked up again when SIGKILLed mid-job, and the restarted worker completes it once', async () => {
    const first = await startWorker({ RESUME_TEST_DELAY_MS: '60000' });
    const id = await pipeline.upload({ content: fixture(PEOPLE.pdf.file), mimeType: PDF_MIME, createIntake: true });
    await pipeline.waitForStatus(id, ['processing']);
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await pipeline.processing(id)).toMatchObject({ status: 'processing', candidate_id: null, attempts: 1 });
    expect((await inspector.findJobs(processResumeJob.name, { id }))[0]?.state).toBe('active');

    const second = await startWorker({});
    const row = await pipeline.waitForStatus(id, ['completed', 'failed'], 40_000);
    expect(row).toMatchObject({ status: 'completed', error: null, attempts: 2 });
    expect(await pipeline.count('select 1 from candidates where lower(email) = $1', [PEOPLE.pdf.expected.email])).toBe(
      1,
    );
    expect(await pipeline.count('select 1 from intakes where candidate_id = $1', [row.candidate_id])).toBe(1);
    await expect
      .poll(async () => (await inspector.findJobs(processResumeJob.name, { id }))[0]?.state, { timeout: 10_000 })
      .toBe('completed');
    expect((await inspector.findJobs(processResumeJob.name, { id }))[0]?.retryCount).toBe(1);

    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('finishes its active job on SIGTERM before exiting', async () => {
    const worker = await startWorker({ RESUME_TEST_DELAY_MS: '1500' });
    const id = await pipeline.upload({ content: fixture(PEOPLE.docx.file), mimeType: DOCX_MIME });
    await pipeline.waitForStatus(id, ['processing']);
    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    // It waited for the job (held ~1.5 s) instead of abandoning it.
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(500);
    expect(await pipeline.processing(id)).toMatchObject({ status: 'completed', attempts: 1 });
    expect((await inspector.findJobs(processResumeJob.name, { id }))[0]?.state).toBe('completed');
    expect(worker.output()).toContain('"msg":"stopped"');
  }, 60_000);
});
