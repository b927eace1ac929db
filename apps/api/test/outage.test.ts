import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreServices, createLogger, freePort, migrateUp, openOrm, startEmbeddedPostgres } from '@careers/core';
import { type TEmbeddedPostgres, importTenantDocument } from '@careers/core/operations';
import { startApiProcess, type TApiProcess } from './support/processes.ts';
import { applicationBody, query, tenant, vacancy } from './support/write-fixtures.ts';

/**
 * A database outage under a running API process (issue 7): PostgreSQL is stopped (and, separately, frozen) under
 * it. Requests answer 503 quickly instead of hanging, liveness stays up, accepted writes survive, and the same
 * process serves again once PostgreSQL is back, without a restart.
 */

const UNAVAILABLE = { message: 'Service Unavailable.' };
/** Issue 7: an outage answers within 5 s. */
const OUTAGE_BUDGET_MS = 5_000;

const suffix = randomBytes(4).toString('hex');
const KEY = `ck_test_outage_${randomBytes(16).toString('hex')}`;
/** Used only by the in-process services of the batched-writes test (the API process never sees it). */
const BATCH_KEY = `ck_test_batch_${randomBytes(16).toString('hex')}`;
const VACANCY_SLUG = `platform-engineer-${suffix}`;
const USER_ID = 400 + (randomBytes(1)[0] ?? 0);

let dataDir: string;
let port: number;
let server: TEmbeddedPostgres | undefined;
let databaseUrl: string;
let api: TApiProcess;
const timings: Record<string, number> = {};

async function startDatabase(): Promise<void> {
  server = await startEmbeddedPostgres({ dataDir, port, database: 'careers_outage' });
  databaseUrl = server.url;
}

async function stopDatabase(): Promise<void> {
  await server?.stop();
  server = undefined;
}

type TCall = { status: number; body: unknown; ms: number };

async function call(path: string, init: { method?: string; body?: unknown; key?: string | null } = {}): Promise<TCall> {
  const started = performance.now();
  const key = init.key === undefined ? KEY : init.key;
  const response = await fetch(api.baseUrl + path, {
    method: init.method ?? 'GET',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    ms: Math.round(performance.now() - started),
  };
}

function resumeBody(): Record<string, unknown> {
  return {
    user_id: USER_ID,
    resume: {
      filename: 'cv.pdf',
      content: Buffer.from(`%PDF-1.4 outage ${suffix}`).toString('base64'),
      mime_type: 'application/pdf',
    },
  };
}

/** Every PostgreSQL process of the cluster: the postmaster and its children (backends, checkpointer, …). */
function clusterPids(): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // Field 4 of /proc/PID/stat is the parent pid (after the parenthesised command name).
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** Signals a process that may have ended meanwhile (an exited backend is reaped as soon as the postmaster runs). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The requests of an outage: reads, writes, the health check and a wrong key all need the database. */
const OUTAGE_REQUESTS: Array<{ name: string; path: string; method?: string; body?: () => unknown; key?: string }> = [
  { name: 'GET /health', path: '/health' },
  { name: 'GET /vacancies', path: '/vacancies' },
  { name: 'GET /vacancies/{slug}', path: `/vacancies/${VACANCY_SLUG}` },
  { name: 'GET /vacancies/facets', path: '/vacancies/facets' },
  { name: 'GET /locations', path: '/locations' },
  { name: 'GET /candidates', path: `/candidates?user_id=${USER_ID}` },
  { name: 'POST /applications', path: '/applications', method: 'POST', body: () => applicationBody(VACANCY_SLUG) },
  { name: 'POST /candidates', path: '/candidates', method: 'POST', body: resumeBody },
  { name: 'GET /health (unknown key)', path: '/health', key: `ck_test_unknown_${suffix}_000000000` },
];

async function expectUnavailable(label: string): Promise<void> {
  // Past the key cache's TTL: the key itself must be read from the database again.
  await sleep(600);
  const results = await Promise.all(
    OUTAGE_REQUESTS.map((request) =>
      call(request.path, { method: request.method, body: request.body?.(), key: request.key }),
    ),
  );
  for (const [index, result] of results.entries()) {
    const name = OUTAGE_REQUESTS[index]!.name;
    expect({ name, status: result.status, body: result.body }).toEqual({ name, status: 503, body: UNAVAILABLE });
    expect(result.ms, name).toBeLessThan(OUTAGE_BUDGET_MS);
    timings[`${label} ${name}`] = result.ms;
  }
  // A burst larger than the pool (10) waits for connections, and still answers in time.
  const burst = await Promise.all(Array.from({ length: 30 }, () => call('/vacancies')));
  expect(burst.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 503));
  timings[`${label} burst of 30, slowest`] = Math.max(...burst.map((r) => r.ms));
  expect(Math.max(...burst.map((r) => r.ms))).toBeLessThan(OUTAGE_BUDGET_MS);

  const ready = await call('/readyz', { key: null });
  expect({ status: ready.status, body: ready.body }).toEqual({ status: 503, body: UNAVAILABLE });
  expect(ready.ms).toBeLessThan(OUTAGE_BUDGET_MS);
  timings[`${label} GET /readyz`] = ready.ms;

  // What needs no database still answers: liveness, the document, a request without a key.
  const live = await call('/livez', { key: null });
  expect({ status: live.status, body: live.body }).toEqual({ status: 200, body: { status: 'ok' } });
  expect((await call('/openapi.json', { key: null })).status).toBe(200);
  expect(await call('/health', { key: null })).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
}

async function expectRecovered(): Promise<void> {
  await expect
    .poll(async () => (await call('/readyz', { key: null })).status, { timeout: 15_000, interval: 200 })
    .toBe(200);
  expect(await call('/health')).toMatchObject({
    status: 200,
    body: { status: 'authenticated', tenant: `outage-${suffix}` },
  });
  const list = await call('/vacancies');
  expect(list.status).toBe(200);
  expect((list.body as { data: Array<{ slug: string }> }).data.map((v) => v.slug)).toEqual([VACANCY_SLUG]);
  expect((await call('/applications', { method: 'POST', body: applicationBody(VACANCY_SLUG) })).status).toBe(201);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'careers-outage-pg-'));
  // A fixed port, so the restarted server is where the API's pool left it.
  port = await freePort();
  await startDatabase();
  const orm = await openOrm(databaseUrl);
  try {
    await migrateUp(orm);
    await importTenantDocument(
      { em: orm.em },
      {
        tenants: [
          tenant(`outage-${suffix}`, {
            api_keys: [
              { id: 1, name: 'Website', key: KEY, scopes: ['*'] },
              { id: 2, name: 'Batch', key: BATCH_KEY, scopes: [] },
            ],
            users: [{ id: USER_ID, name: 'Rita Recruiter', email: `rita.${suffix}@outage.example`, role: 'recruiter' }],
            locations: [{ id: 3, slug: `utrecht-${suffix}`, name: 'Utrecht', locality: 'Utrecht', country_code: 'NL' }],
            vacancies: [vacancy(11, VACANCY_SLUG, { location_id: 3, views_count: 5 })],
          }),
        ],
      },
    );
  } finally {
    await orm.close();
  }
  api = await startApiProcess(databaseUrl, { LOG_LEVEL: 'warn' });
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await stopDatabase();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  // The measured figures, for the closing note.
  console.log(`outage response times (ms): ${JSON.stringify(timings, null, 1)}`);
});

describe('a database outage under a running API process', () => {
  let applicationId: number;
  let processingId: string;

  it('accepts writes before the outage', async () => {
    expect((await call('/readyz', { key: null })).status).toBe(200);
    const application = await call('/applications', { method: 'POST', body: applicationBody(VACANCY_SLUG) });
    expect(application.status).toBe(201);
    applicationId = (application.body as { data: { id: number } }).data.id;
    const accepted = await call('/candidates', { method: 'POST', body: resumeBody() });
    expect(accepted.status).toBe(202);
    processingId = (accepted.body as { processing_id: string }).processing_id;
    // Three views, batched in the API's memory; whether or not they are written before the stop, none is lost.
    for (let i = 0; i < 3; i++) expect((await call(`/vacancies/${VACANCY_SLUG}`)).status).toBe(200);
  });

  it('answers 503 within 5 s while PostgreSQL is stopped, and stays live', async () => {
    await stopDatabase();
    await expectUnavailable('stopped:');
  }, 60_000);

  it('serves again once PostgreSQL is back, without a restart, and lost nothing it had accepted', async () => {
    await startDatabase();
    await expectRecovered();
    expect(await query(databaseUrl, 'select id from applications where id = $1', [applicationId])).toEqual([
      { id: applicationId },
    ]);
    expect(await query(databaseUrl, 'select status from resume_processings where id = $1', [processingId])).toEqual([
      { status: 'queued' },
    ]);
    expect(
      await query(databaseUrl, `select state from pgboss.job where name = 'resume.process' and id = $1`, [
        processingId,
      ]),
    ).toEqual([{ state: 'created' }]);
    await expect
      .poll(async () => (await query(databaseUrl, 'select views_count from vacancies where id = 11'))[0]?.views_count, {
        timeout: 10_000,
      })
      .toBe(8);
    expect(api.output()).not.toMatch(/uncaught|unhandled/i);
  }, 60_000);

  it('answers 503 within 5 s while PostgreSQL is frozen (no answer at all), then recovers', async () => {
    // SIGSTOP keeps every connection open and silent, like a network partition: only timeouts end a wait.
    const pids = clusterPids();
    for (const pid of pids) signal(pid, 'SIGSTOP');
    try {
      await expectUnavailable('frozen:');
    } finally {
      for (const pid of pids) signal(pid, 'SIGCONT');
    }
    await expectRecovered();
  }, 90_000);
});

describe('batched writes across an outage', () => {
  it('keeps view counts and key last-use that could not be written, and writes them once the database is back', async () => {
    const orm = await openOrm(databaseUrl);
    // No timer flush: this test flushes by hand.
    const services = createCoreServices(orm, createLogger('outage-test'), { flushIntervalMs: 3_600_000 });
    try {
      const verified = await services.keys.verify(`Bearer ${BATCH_KEY}`);
      expect(verified.ok).toBe(true);
      expect(await query(databaseUrl, 'select last_used_at from api_keys where id = 2')).toEqual([
        { last_used_at: null },
      ]);
      const before = (await query(databaseUrl, 'select views_count from vacancies where id = 11'))[0]
        ?.views_count as number;
      services.views.record('vacancies', 11);
      services.views.record('vacancies', 11);

      await stopDatabase();
      await expect(services.flush()).rejects.toThrow();
      // Recorded during the outage: kept as well.
      services.views.record('vacancies', 11);
      await startDatabase();

      await services.flush();
      expect(await query(databaseUrl, 'select views_count from vacancies where id = 11')).toEqual([
        { views_count: before + 3 },
      ]);
      const [key] = await query(databaseUrl, 'select last_used_at from api_keys where id = 2');
      expect(key?.last_used_at).toBeInstanceOf(Date);
      // Written once: a second flush has nothing left.
      await services.flush();
      expect(await query(databaseUrl, 'select views_count from vacancies where id = 11')).toEqual([
        { views_count: before + 3 },
      ]);
    } finally {
      await services.close();
      await orm.close();
    }
  }, 60_000);
});
