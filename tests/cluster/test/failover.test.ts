import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWebhookReceiver, type TWebhookReceiver } from '@careers/core/testing';
import { missingFailoverBinaries } from '../src/binaries.ts';
import {
  ADMIN_USER,
  startFailoverCluster,
  startUnits,
  TENANT,
  TENANT_KEY,
  type TFailoverCluster,
} from '../src/cluster.ts';
import { runLoad, send, sendRetrying, type TLoadReport, type TRequestSpec } from '../src/load.ts';
import type { TPatroniNode } from '../src/patroni.ts';
import { startProxy, type TProxy } from '../src/proxy.ts';
import { apiErrorLines, apiErrors, reportFigures } from '../src/report.ts';
import { careers, type TUnit } from '../src/units.ts';

/**
 * Issue #32 on real servers: Patroni with a primary and a synchronous standby (etcd, HAProxy routing to the leader),
 * three API processes, two workers and the admin connected through HAProxy. Under a mixed load the primary's
 * PostgreSQL is SIGKILLed; then the old primary rejoins as a standby, and a planned switchover runs under the same load.
 * No unit is restarted; the admin answers (sign-in and overview) after each event.
 */
const missing = missingFailoverBinaries() ?? (process.env.CLUSTER_FAILOVER === '0' ? 'CLUSTER_FAILOVER=0' : undefined);
const PUBLIC_URL = 'https://api.careers.test';
/** The key that encrypts webhook endpoint secrets (CLI, API and workers share it). */
const WEBHOOK_SECRET_KEY = Buffer.alloc(32, 'cluster-failover-webhook-key!!!!').toString('base64');
const READ_CONNECTIONS = 6;
/** A switchover whose primary-less gap is at most this long must fail no request (see the switchover test). */
const SWITCHOVER_GAP_BUDGET_MS = 5_000;
/** POST /applications and POST /candidates allow 10 a minute per key: enough keys that the load never meets the limit. */
const WRITER_KEYS = 60;
const RESUME = readFileSync(
  fileURLToPath(new URL('../../../packages/core/test/fixtures/resumes/jane-van-der-berg.pdf', import.meta.url)),
).toString('base64');
const BENCH_USER_ID = 1_000_001;

type TJson = Record<string, any>;

/** One logical write of the load: retried with its Idempotency-Key until answered. */
type TWrite = {
  kind: 'application' | 'resume';
  idempotencyKey: string;
  sentAt: number;
  answeredAt?: number;
  status?: number;
  json?: TJson;
  failures: Array<{ at: number; why: string }>;
};

describe.skipIf(missing)(`Patroni: losing the primary${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let cluster: TFailoverCluster;
  let units: Awaited<ReturnType<typeof startUnits>>;
  let proxy: TProxy;
  let receiver: TWebhookReceiver;
  const slugs: string[] = [];
  let locations: number[] = [];
  let feedStart: string;
  let writeSeq = 0;
  let keySeq = 0;
  const runId = Date.now().toString(36);

  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;
  const nextKey = () => cluster.writerKeys[keySeq++ % cluster.writerKeys.length] as string;

  /** Cached reads (a few fixed addresses) and uncached ones (pages and facets the processes have not seen). */
  const readMix = (): TRequestSpec => {
    const roll = Math.random();
    const path =
      roll < 0.3
        ? pick(['/v1/vacancies', '/v1/vacancies/facets', '/v1/locations', `/v1/vacancies/${slugs[0]}`])
        : roll < 0.55
          ? `/v1/vacancies?page=${1 + Math.floor(Math.random() * 40)}&per_page=${pick([10, 20, 25])}`
          : roll < 0.7
            ? `/v1/vacancies/facets?language=${pick(['en', 'nl'])}&location_id=${pick(locations)}`
            : `/v1/vacancies/${pick(slugs)}`;
    return { path, key: TENANT_KEY };
  };

  const application = (): TRequestSpec & { idempotencyKey: string } => {
    const n = ++writeSeq;
    const idempotencyKey = `failover-${runId}-${n}`;
    return {
      idempotencyKey,
      method: 'POST',
      path: '/v1/applications',
      key: nextKey(),
      headers: { 'idempotency-key': idempotencyKey },
      body: {
        vacancy: pick(slugs),
        candidate: { given_name: 'Ada', family_name: `Failover ${n}`, email: `${idempotencyKey}@example.org` },
      },
    };
  };

  const resumeUpload = (): TRequestSpec & { idempotencyKey: string } => {
    const idempotencyKey = `resume-${runId}-${++writeSeq}`;
    return {
      idempotencyKey,
      method: 'POST',
      path: '/v1/candidates',
      key: nextKey(),
      headers: { 'idempotency-key': idempotencyKey },
      body: { user_id: BENCH_USER_ID, resume: { filename: 'jane.pdf', content: RESUME, mime_type: 'application/pdf' } },
    };
  };

  /** A writer loop: one logical write after another, each retried until answered, `pauseMs` apart. */
  const writer = async (
    make: () => TRequestSpec & { idempotencyKey: string },
    kind: TWrite['kind'],
    writes: TWrite[],
    running: () => boolean,
    pauseMs: number,
  ) => {
    while (running()) {
      const spec = make();
      const write: TWrite = { kind, idempotencyKey: spec.idempotencyKey, sentAt: Date.now(), failures: [] };
      writes.push(write);
      const { answer, failures } = await sendRetrying(proxy.url, spec);
      write.failures = failures;
      write.answeredAt = Date.now();
      write.status = answer?.status;
      write.json = answer ? (JSON.parse(answer.body) as TJson) : undefined;
      await sleep(pauseMs);
    }
  };

  /** Signs in to the admin (a session row written through the router) and reads the overview with it. */
  const adminAnswers = async () => {
    const base = `http://127.0.0.1:${(units.admins[0] as TUnit).port}`;
    const headers = { 'content-type': 'application/json', origin: base };
    const signIn = await fetch(`${base}/trpc/admin.signIn`, {
      method: 'POST',
      headers,
      body: JSON.stringify(ADMIN_USER),
      signal: AbortSignal.timeout(15_000),
    });
    const signInBody = await signIn.text();
    const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
    const overview = await fetch(`${base}/trpc/admin.overview`, {
      headers: { cookie, origin: base },
      signal: AbortSignal.timeout(15_000),
    });
    const overviewBody = await overview.text();
    return {
      signIn: signIn.status,
      overview: overview.status,
      detail: `${signInBody.slice(0, 200)} | ${overviewBody.slice(0, 200)}`,
    };
  };

  /** Polls the admin's overview (one signed-in session) while `running`: what an operator watching the dashboard saw. */
  const adminPoller = async (running: () => boolean) => {
    const base = `http://127.0.0.1:${(units.admins[0] as TUnit).port}`;
    // Signed in before the event (retried: the machine may be slow to answer the first time).
    let cookie = '';
    for (let attempt = 0; !cookie && attempt < 20; attempt++) {
      const signIn = await fetch(`${base}/trpc/admin.signIn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify(ADMIN_USER),
      }).catch(() => undefined);
      if (signIn?.status === 200) cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
      else await sleep(250);
    }
    const seen = { requests: 0, failures: [] as string[] };
    while (running()) {
      seen.requests++;
      try {
        const response = await fetch(`${base}/trpc/admin.overview`, {
          headers: { cookie, origin: base },
          signal: AbortSignal.timeout(15_000),
        });
        const body = await response.text();
        if (response.status !== 200) seen.failures.push(`${response.status} ${body.slice(0, 120)}`);
      } catch (error) {
        seen.failures.push((error as Error).message);
      }
      await sleep(500);
    }
    return seen;
  };

  /** Follows the change feed (candidates) from `feedStart` while the load runs: what a consumer saw, in order. */
  const feedFollower = async (running: () => boolean) => {
    const seen: string[] = [];
    let cursor = feedStart;
    let failures = 0;
    for (;;) {
      const stillRunning = running();
      const page = await sendRetrying(proxy.url, {
        path: `/v1/changes?types[]=candidate&limit=100&after=${cursor}`,
        key: TENANT_KEY,
      });
      failures += page.failures.length;
      const json = JSON.parse(page.answer?.body ?? '{}') as TJson;
      seen.push(...((json.data ?? []) as TJson[]).map((entry) => entry.event_id as string));
      cursor = (json.next_cursor as string | undefined) ?? cursor;
      if (!stillRunning && json.has_more === false) return { seen, failures, cursor };
      if (json.has_more !== true) await sleep(200);
    }
  };

  /**
   * Runs the mixed load through the proxy while `during` does its work, then lets the writers finish their last write
   * and the feed follower catch up.
   */
  const mixedLoad = async (during: () => Promise<void>) => {
    let running = true;
    const writes: TWrite[] = [];
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const reads = runLoad(proxy.url, READ_CONNECTIONS, readMix, finished);
    const writers = Promise.all([
      writer(application, 'application', writes, () => running, 250),
      writer(application, 'application', writes, () => running, 250),
      writer(resumeUpload, 'resume', writes, () => running, 1_500),
    ]);
    const feed = feedFollower(() => running);
    const admin = adminPoller(() => running);
    try {
      await during();
    } finally {
      finish();
      running = false;
    }
    const readReport = await reads;
    await writers;
    return { reads: readReport, writes, feed: await feed, admin: await admin };
  };

  /** Checks every acknowledged write afterwards; returns the figures of the table. */
  const checkWrites = async (writes: TWrite[], feed: { seen: string[]; cursor: string }) => {
    const applications = writes.filter((w) => w.kind === 'application');
    const acknowledged = applications.filter((w) => w.status === 201);
    const keys = applications.map((w) => `'${w.idempotencyKey}@example.org'`).join(',');
    // Every application of the load, counted by Idempotency-Key (it is in the candidate's email).
    const stored = await cluster.patroni.sql(`
      select c.email, count(a.id)::int as applications, min(a.id)::int as id
      from candidates c join applications a on a.candidate_id = c.id
      where c.email in (${keys}) group by c.email`);
    const countOf = new Map(
      stored.map((row) => [String(row.email).replace('@example.org', ''), Number(row.applications)]),
    );
    const missingWrites = acknowledged.filter((w) => countOf.get(w.idempotencyKey) !== 1).map((w) => w.idempotencyKey);
    const duplicates = [...countOf].filter(([, count]) => count > 1).map(([key]) => key);

    // Every resume accepted (202) is processed: none of its jobs was lost.
    const resumes = writes.filter((w) => w.kind === 'resume' && w.status === 202);
    const processingIds = resumes.map((w) => `'${w.json?.processing_id as string}'`);
    const statuses = async () =>
      processingIds.length === 0
        ? []
        : await cluster.patroni.sql(
            `select id, status, error from resume_processings where id in (${processingIds.join(',')})`,
          );
    const resumeDeadline = Date.now() + 60_000;
    let unfinished = (await statuses()).filter((row) => row.status === 'queued' || row.status === 'processing');
    while (unfinished.length > 0 && Date.now() < resumeDeadline) {
      await sleep(1_000);
      unfinished = (await statuses()).filter((row) => row.status === 'queued' || row.status === 'processing');
    }
    // A parse that failed (a crowded machine can push the PDF past the parse's time limit) is an outcome, not a lost job.
    const failedParses = (await statuses()).filter((row) => row.status === 'failed').map((row) => String(row.error));

    // Every acknowledged application's event reaches the webhook receiver (at least once).
    const expectedEvents = new Set(acknowledged.map((w) => Number(w.json?.data?.id)));
    const delivered = () => new Set(receiver.received.map((r) => Number((JSON.parse(r.body) as TJson).data?.id)));
    const eventDeadline = Date.now() + 60_000;
    while ([...expectedEvents].some((id) => !delivered().has(id)) && Date.now() < eventDeadline) await sleep(500);
    const lostEvents = [...expectedEvents].filter((id) => !delivered().has(id));

    // The follower reads on from where it stopped (the workers made candidates after the load), then the feed read
    // afresh from the start must hold nothing it did not see: a cursor never moved past an entry committed later.
    for (let cursor = feed.cursor; ; ) {
      const page = JSON.parse(
        (await send(proxy.url, { path: `/v1/changes?types[]=candidate&limit=100&after=${cursor}`, key: TENANT_KEY }))
          .body,
      ) as TJson;
      feed.seen.push(...(page.data as TJson[]).map((entry) => entry.event_id as string));
      cursor = page.next_cursor as string;
      if (!page.has_more) break;
    }
    const fresh: string[] = [];
    let cursor = feedStart;
    for (;;) {
      const page = JSON.parse(
        (await send(proxy.url, { path: `/v1/changes?types[]=candidate&limit=100&after=${cursor}`, key: TENANT_KEY }))
          .body,
      ) as TJson;
      fresh.push(...(page.data as TJson[]).map((entry) => entry.event_id as string));
      cursor = page.next_cursor as string;
      if (!page.has_more) break;
    }
    const seen = new Set(feed.seen);
    const feedGaps = fresh.filter((id) => !seen.has(id));
    return {
      applications: applications.length,
      acknowledged: acknowledged.length,
      missingWrites,
      duplicates,
      resumes: resumes.length,
      lostJobs: unfinished.length,
      failedParses,
      events: expectedEvents.size,
      lostEvents: lostEvents.length,
      feedEntries: fresh.length,
      feedGaps: feedGaps.length,
    };
  };

  beforeAll(async () => {
    cluster = await startFailoverCluster({ vacancies: 1000, writerKeys: WRITER_KEYS });
    receiver = await startWebhookReceiver();
    await careers(
      ['webhooks', 'create', '--tenant', TENANT, '--url', receiver.url, '--events', 'application.created'],
      { DATABASE_URL: cluster.patroni.urlOf(), WEBHOOK_SECRET_KEY, WEBHOOK_ALLOW_INSECURE_LOCAL: '1' },
    );
    units = await startUnits(
      cluster,
      { apis: 3, workers: 2, admins: 1 },
      { PUBLIC_URL, WEBHOOK_SECRET_KEY, WEBHOOK_ALLOW_INSECURE_LOCAL: '1', WEBHOOK_POLL_INTERVAL_MS: '200' },
    );
    proxy = await startProxy(units.apis.map((api) => api.port));
    const api = `http://127.0.0.1:${(units.apis[0] as TUnit).port}`;
    for (const page of [1, 2, 3]) {
      const list = JSON.parse(
        (await send(api, { path: `/v1/vacancies?per_page=100&page=${page}`, key: TENANT_KEY })).body,
      ) as TJson;
      slugs.push(
        ...(list.data as TJson[]).filter((v) => v.accepts_applications !== false).map((v) => v.slug as string),
      );
    }
    const facets = JSON.parse((await send(api, { path: '/v1/vacancies/facets', key: TENANT_KEY })).body).data as Record<
      string,
      Array<{ id: number }>
    >;
    locations = (facets.locations ?? []).map((entry) => entry.id);
    // The feed's position before the load.
    let cursor = '';
    for (;;) {
      const page = JSON.parse(
        (
          await send(api, {
            path: `/v1/changes?types[]=candidate&limit=100${cursor ? `&after=${cursor}` : ''}`,
            key: TENANT_KEY,
          })
        ).body,
      ) as TJson;
      cursor = page.next_cursor as string;
      if (!page.has_more) break;
    }
    feedStart = cursor;
  });

  afterAll(async () => {
    await proxy?.close();
    await units?.stop();
    await receiver?.close();
    await cluster?.stop();
  });

  let oldPrimary: TPatroniNode;

  it('fails over to the synchronous standby when the primary is SIGKILLed: nothing acknowledged lost or doubled, writes again within 30 s', async () => {
    const { leader, standby } = await cluster.patroni.healthy();
    oldPrimary = leader;
    const pids = [...units.apis, ...units.workers, ...units.admins].map((unit) => unit.pid());
    let killedAt = 0;
    let promotedAt = 0;
    const load = await mixedLoad(async () => {
      await sleep(4_000);
      killedAt = Date.now();
      leader.killPostgres();
      while ((await cluster.patroni.leader()) !== standby) await sleep(100);
      promotedAt = Date.now();
      await sleep(12_000);
    });
    const checks = await checkWrites(load.writes, load.feed);
    const firstWriteAt = Math.min(
      ...load.writes
        .filter((w) => w.sentAt > killedAt && (w.status === 201 || w.status === 202))
        .map((w) => w.answeredAt as number),
    );
    const readFailureTimes = load.reads.failureTimes.map((t) => load.reads.startedAt + t - killedAt);
    const figures = {
      ...tableRow(load.reads, load.writes, killedAt),
      promotedAfterMs: promotedAt - killedAt,
      firstWriteAfterMs: firstWriteAt - killedAt,
      readFailuresBetweenMs: readFailureTimes.length
        ? [Math.min(...readFailureTimes), Math.max(...readFailureTimes)]
        : [],
      ...checks,
      adminPolls: load.admin.requests,
      adminFailures: load.admin.failures,
    };
    const admin = await adminAnswers();
    reportFigures('failover', {
      ...figures,
      writeFailures: writeFailures(load.writes, killedAt),
      adminAfter: admin,
      apiErrors: apiErrors(units.apis),
    });
    expect(checks.missingWrites).toEqual([]);
    expect(checks.duplicates).toEqual([]);
    expect(checks.lostJobs).toBe(0);
    expect(checks.lostEvents).toBe(0);
    expect(checks.feedGaps).toBe(0);
    expect(checks.acknowledged).toBeGreaterThan(5);
    expect(firstWriteAt - killedAt).toBeLessThan(30_000);
    // Reads fail only as 503 with Retry-After, only while no primary was known, never hang.
    for (const failure of load.reads.failures) expect(failure).toMatch(/: 503 \(Retry-After: \d+\)/);
    for (const at of readFailureTimes) expect(at).toBeLessThan(firstWriteAt - killedAt + 2_000);
    expect(load.reads.maxLatencyMs).toBeLessThan(10_000);
    // No unit was restarted: the same processes, all still running; the admin answers through the new primary.
    expect([...units.apis, ...units.workers, ...units.admins].map((unit) => unit.pid())).toEqual(pids);
    for (const unit of [...units.apis, ...units.workers, ...units.admins]) expect(unit.exited(), unit.name).toBe(false);
    expect([admin.signIn, admin.overview], admin.detail).toEqual([200, 200]);
  });

  it('takes the old primary back as a synchronous standby (pg_rewind where its history diverged)', async () => {
    const { leader, standby } = await cluster.patroni.healthy(120_000);
    expect(standby).toBe(oldPrimary);
    expect(leader).not.toBe(oldPrimary);
    const log = readFileSync(`${cluster.root}/${oldPrimary.name}.log`, 'utf8');
    reportFigures('rejoin', {
      timeline: (await leader.status())?.timeline,
      rewindLog: log
        .split('\n')
        .filter((line) => /rewind/i.test(line))
        .slice(0, 4),
    });
  });

  it('switches over under load without a failed request: every write acknowledged once, nothing lost, the admin answers', async () => {
    const { leader, standby } = await cluster.patroni.healthy(120_000);
    const pids = [...units.apis, ...units.workers, ...units.admins].map((unit) => unit.pid());
    let switchedAt = 0;
    let promotedAt = 0;
    const load = await mixedLoad(async () => {
      await sleep(3_000);
      switchedAt = Date.now();
      await cluster.patroni.switchover(leader, standby);
      while ((await cluster.patroni.leader()) !== standby) await sleep(100);
      promotedAt = Date.now();
      await sleep(6_000);
    });
    const checks = await checkWrites(load.writes, load.feed);
    const admin = await adminAnswers();
    const row = tableRow(load.reads, load.writes, switchedAt);
    reportFigures('switchover', {
      ...row,
      promotedAfterMs: promotedAt - switchedAt,
      ...checks,
      adminPolls: load.admin.requests,
      adminFailures: load.admin.failures,
      adminAfter: admin,
      readFailureCauses: load.reads.failures.slice(0, 5),
      writeFailures: writeFailures(load.writes, switchedAt),
      apiErrors: apiErrors(units.apis),
      apiErrorLines: apiErrorLines(units.apis),
    });
    // Issue #32: a planned switchover fails no request. Statements cut by the old primary's shutdown run again when
    // they may (reads, writes whose COMMIT was not sent: fresh-connection.ts); new connections wait for the new one
    // within the API's reconnect window (3 s, bounded by issue 7's 503 within 5 s). When Patroni leaves no primary
    // longer than that (a crowded machine: 5–7 s at load 20), a request may still answer 503 with Retry-After while
    // there is none; never after.
    const gapMs = promotedAt - switchedAt;
    if (gapMs <= SWITCHOVER_GAP_BUDGET_MS) {
      expect(load.reads.failures).toEqual([]);
      expect(row.applicationAttemptsFailed + row.resumeAttemptsFailed).toBe(0);
    } else {
      for (const failure of load.reads.failures) expect(failure).toMatch(/: 503 \(Retry-After: \d+\)/);
      for (const at of row.readFailuresMs) expect(at).toBeLessThan(gapMs + 1_000);
    }
    expect(load.admin.failures).toEqual([]);
    expect([admin.signIn, admin.overview], admin.detail).toEqual([200, 200]);
    expect([...units.apis, ...units.workers, ...units.admins].map((unit) => unit.pid())).toEqual(pids);
    expect(load.writes.filter((w) => w.status === undefined)).toEqual([]);
    expect(checks.missingWrites).toEqual([]);
    expect(checks.duplicates).toEqual([]);
    expect(checks.lostJobs).toBe(0);
    expect(checks.lostEvents).toBe(0);
    expect(checks.feedGaps).toBe(0);
  });
});

/** Each failed write attempt: its kind, when (ms after the event) and what it was answered. */
function writeFailures(writes: TWrite[], eventAt: number): string[] {
  return writes.flatMap((w) => w.failures.map((f) => `${w.kind} at ${f.at - eventAt} ms: ${f.why.slice(0, 200)}`));
}

/** Requests per kind, failed per kind, and when the failures happened (ms after the event). */
function tableRow(reads: TLoadReport, writes: TWrite[], eventAt: number) {
  const attempts = (kind: TWrite['kind']) => writes.filter((w) => w.kind === kind);
  const failedAt = (list: TWrite[]) => list.flatMap((w) => w.failures.map((f) => f.at - eventAt));
  const span = (times: number[]) => (times.length === 0 ? [] : [Math.min(...times), Math.max(...times)]);
  const readFailures = reads.failureTimes.map((t) => reads.startedAt + t - eventAt);
  return {
    reads: reads.requests,
    readFailures: reads.failures.length,
    readFailuresMs: span(readFailures),
    applications: attempts('application').length,
    applicationAttemptsFailed: failedAt(attempts('application')).length,
    applicationFailuresMs: span(failedAt(attempts('application'))),
    resumeUploads: attempts('resume').length,
    resumeAttemptsFailed: failedAt(attempts('resume')).length,
    unanswered: writes.filter((w) => w.status === undefined).length,
    otherStatuses: writes
      .filter((w) => w.status !== undefined && w.status !== 201 && w.status !== 202)
      .map((w) => `${w.kind} ${w.status} ${JSON.stringify(w.json).slice(0, 120)}`),
    maxReadLatencyMs: reads.maxLatencyMs,
  };
}
