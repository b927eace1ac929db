import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freePort, migrateUp, openOrm, startEmbeddedPostgres, type TOrm } from '@careers/core';
import { type TEmbeddedPostgres, importTenantDocument } from '@careers/core/operations';
import { JobSender, acceptResume, PDF_MIME, serviceContext } from '@careers/core/testing';
import { buildPdf } from './support/pipeline.ts';

/**
 * A database outage under a running worker process (issue 7): PostgreSQL stops while resume jobs are queued and
 * one is mid-way. The worker keeps running (its metrics endpoint answers), and once PostgreSQL is back the same
 * process works every job off: none is lost, none is done twice.
 */

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const TENANT_ID = 31;
const USER_ID = 310;
const suffix = randomBytes(4).toString('hex');

let dataDir: string;
let port: number;
let server: TEmbeddedPostgres | undefined;
let url: string;
let orm: TOrm;
let sender: JobSender;
let worker: ChildProcess;
let output = '';
let metricsPort: number;

async function startDatabase(): Promise<void> {
  server = await startEmbeddedPostgres({ dataDir, port, database: 'careers_worker_outage' });
  url = server.url;
}

async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A resume of a person of its own (name, email), so every upload makes a distinct candidate. */
async function upload(index: number): Promise<{ id: string; email: string }> {
  const email = `person${index}.${suffix}@outage.example`;
  const content = await buildPdf([
    `Alex Person${String.fromCharCode(65 + index)}`,
    `Email: ${email}`,
    'Phone: +31 20 123 4567',
  ]);
  const id = await acceptResume(
    { ...serviceContext(orm.em.fork(), TENANT_ID), services: { jobs: sender } },
    {
      userId: USER_ID,
      filename: `cv-${index}.pdf`,
      mimeType: PDF_MIME,
      content: Buffer.from(content),
      createIntake: false,
    },
  );
  return { id, email };
}

async function statusOf(id: string): Promise<string | undefined> {
  return (await sql<{ status: string }>('select status from resume_processings where id = $1', [id]))[0]?.status;
}

async function scrape(): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5_000) });
  return { status: response.status, text: await response.text() };
}

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'careers-worker-outage-pg-'));
  port = await freePort();
  await startDatabase();
  orm = await openOrm(url);
  await migrateUp(orm);
  await importTenantDocument(
    { em: orm.em },
    {
      tenants: [
        {
          id: TENANT_ID,
          slug: `outage-${suffix}`,
          name: 'Outage Inc',
          users: [{ id: USER_ID, name: 'Ruth', email: `ruth.${suffix}@outage.example`, role: 'recruiter' }],
        },
      ],
    },
  );
  sender = new JobSender(url, () => undefined);
  metricsPort = await freePort();
  worker = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: url,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      WORKER_METRICS_PORT: String(metricsPort),
      WORKER_METRICS_HOST: '127.0.0.1',
      // Each job is held 1.5 s once processing, so the outage finds one mid-way.
      RESUME_TEST_DELAY_MS: '1500',
      JOB_POLLING_INTERVAL_SECONDS: '0.5',
      JOB_SUPERVISE_INTERVAL_SECONDS: '1',
      // A job whose attempt died with the connection comes back after a missed heartbeat (10 s), retried 1 s later.
      RESUME_JOB_HEARTBEAT_SECONDS: '10',
      RESUME_JOB_RETRY_DELAY_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  worker.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('"msg":"worker started"')) {
    if (worker.exitCode !== null || Date.now() > deadline) throw new Error(`worker did not start:\n${output}`);
    await sleep(50);
  }
}, 120_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000).then(() => worker.kill('SIGKILL'))]);
  }
  await sender?.close();
  await orm?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a database outage under a running worker process', () => {
  it('loses no queued or in-flight job and recovers without a restart', async () => {
    const first = await upload(0);
    await expect.poll(() => statusOf(first.id), { timeout: 30_000, interval: 100 }).toBe('completed');

    const queued: Array<{ id: string; email: string }> = [];
    for (let index = 1; index <= 4; index++) queued.push(await upload(index));
    await expect
      .poll(async () => (await Promise.all(queued.map((job) => statusOf(job.id)))).includes('processing'), {
        timeout: 15_000,
        interval: 50,
      })
      .toBe(true);

    await server?.stop();
    server = undefined;
    const stoppedAt = Date.now();
    // While the database is down the worker runs on and its metrics endpoint answers.
    while (Date.now() - stoppedAt < 4_000) {
      expect(worker.exitCode).toBeNull();
      const scraped = await scrape();
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('careers_resume_jobs_total');
      await sleep(500);
    }

    await startDatabase();
    for (const job of queued)
      await expect.poll(() => statusOf(job.id), { timeout: 60_000, interval: 250 }).toBe('completed');

    // Every upload made exactly one candidate, each associated with the user once.
    const emails = [first, ...queued].map((job) => job.email);
    const candidates = await sql<{ email: string; users: number }>(
      `select c.email, (select count(*)::int from candidate_users cu where cu.candidate_id = c.id) as users
         from candidates c where c.email = any($1::text[]) order by c.email`,
      [emails],
    );
    expect(candidates).toEqual([...emails].sort().map((email) => ({ email, users: 1 })));
    const jobs = await sql<{ state: string }>(
      `select state from pgboss.job where name = 'resume.process' and id = any($1::uuid[])`,
      [[first, ...queued].map((job) => job.id)],
    );
    expect(jobs.map((job) => job.state).sort()).toEqual(Array.from({ length: 5 }, () => 'completed'));
    // The job that was mid-way when the database went away either waited the outage out (the worker's connections
    // retry a refused connect for 30 s) or failed that attempt and was retried: each job ran to completion once.
    const attempts = await sql<{ attempts: number }>(
      'select attempts from resume_processings where id = any($1::uuid[])',
      [queued.map((job) => job.id)],
    );
    for (const row of attempts) expect(row.attempts).toBeGreaterThanOrEqual(1);

    // Still the same process, and it says so in its metrics.
    expect(worker.exitCode).toBeNull();
    const after = await scrape();
    expect(sample(after.text, 'careers_resume_jobs_total{outcome="completed"}')).toBe(5);
    // Retries are counted when an attempt failed; a job that waited the outage out needed none.
    expect(sample(after.text, 'careers_resume_jobs_total{outcome="retry"}')).toBeGreaterThanOrEqual(0);
    expect(after.text).toMatch(/^careers_db_pool_connections\{state="total"\} \d+$/m);
  }, 150_000);
});
