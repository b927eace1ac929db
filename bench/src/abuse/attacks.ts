import { Agent } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from '../soak/load.ts';
import { applicationBody, deepJsonBody, nulBodies } from './bodies.ts';
import { ATTACKER_USER_ID, attackerKey, BYSTANDER_KEY, KNOWN_CANDIDATE } from './document.ts';
import { describeStatuses, is4xx, pool, send, type TAnswer } from './http.ts';
import { GUARD_ATTACKS } from './guards.ts';
import { WEBHOOK_ATTACKS } from './webhooks.ts';

/** What every attack gets: where the API is, its deadline, and the material built once for the whole run. */
export type TAttackContext = {
  /** The API's base address, with /v1. */
  baseUrl: string;
  /** The run's database (attacks that act as the operator: webhook endpoints). */
  databaseUrl: string;
  /** Aborted at the attack's deadline: requests in flight end as status 0. */
  signal: AbortSignal;
  /** Milliseconds left before the deadline. */
  remainingMs: () => number;
  /** A fresh attacker key for each write, so the per-key limits (10 a minute) do not answer for the API. */
  nextAttackerKey: () => string;
  /** A visible vacancy of the attacker's tenant that accepts applications. */
  vacancySlug: string;
  material: {
    tinyObjects: Buffer;
    gzipBomb: Buffer;
    /** An ordinary one-page PDF resume with a name and an email, base64. */
    resumePdf: string;
    loopingDoc: Buffer;
    docxBomb: Buffer;
  };
};

/** One check of an attack: passed or not, and what was measured. */
export type TCheck = { ok: boolean; text: string };
export type TOutcome = { statuses: string; checks: TCheck[] };

export type TAttack = {
  name: string;
  /** The bound as printed in the table (the memory bounds of every row are added by the runner). */
  bound: string;
  run: (context: TAttackContext) => Promise<TOutcome>;
};

const round = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const MS_DOC = 'application/msword';
const MS_DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The shapes every attack's requests share: the deadline, the body as JSON, one key per write. */
function post(
  context: TAttackContext,
  path: string,
  body: Buffer,
  headers: Record<string, string> = {},
  key = context.nextAttackerKey(),
): Promise<TAnswer> {
  return send({
    method: 'POST',
    url: `${context.baseUrl}${path}`,
    key,
    body,
    headers,
    timeoutMs: Math.max(1, context.remainingMs()),
    signal: context.signal,
  });
}

/** Sequential requests of the bystander's key until `stop()`; latencies in ms (a failed or late answer counts as its wait). */
function bystanderLoop(
  context: TAttackContext,
  paths: readonly string[],
  stop: () => boolean,
  pauseMs: number,
): Promise<{ latencies: number[]; failures: string[] }> {
  return (async () => {
    const latencies: number[] = [];
    const failures: string[] = [];
    for (let i = 0; !stop() && !context.signal.aborted; i++) {
      const path = paths[i % paths.length] ?? '/health';
      const answer = await send({ url: `${context.baseUrl}${path}`, key: BYSTANDER_KEY, timeoutMs: 5000 });
      latencies.push(answer.ms);
      if (answer.status !== 200) failures.push(`${path} → ${answer.status || answer.error}`);
      if (pauseMs > 0) await sleep(pauseMs);
    }
    return { latencies, failures };
  })();
}

/** The bystander's p99 over `paths` when nothing else runs (after a warm-up: caches filled, code compiled). */
async function bystanderBaseline(context: TAttackContext, paths: readonly string[], requests: number): Promise<number> {
  let count = 0;
  await bystanderLoop(context, paths, () => count++ >= 50, 0);
  count = 0;
  const { latencies } = await bystanderLoop(context, paths, () => count++ >= requests, 0);
  return percentile(
    [...latencies].sort((a, b) => a - b),
    99,
  );
}

const allClientErrors = (answers: readonly TAnswer[], what: string): TCheck => {
  const bad = answers.filter((answer) => !is4xx(answer.status));
  return {
    ok: bad.length === 0,
    text:
      bad.length === 0
        ? `every ${what} answered 4xx`
        : `${bad.length} of ${answers.length} ${what} not 4xx: ${bad
            .slice(0, 3)
            .map((answer) => `${answer.status || answer.error} ${answer.body.slice(0, 120)}`)
            .join(' | ')}`,
  };
};

/** Eight bodies at once: four gzip bombs and four 39 MB bodies of tiny objects, while another tenant's key asks /health. */
const craftedBodies: TAttack = {
  name: 'crafted bodies ×8 (4 gzip bombs, 4 × 39 MB [{},…])',
  bound: 'all 4xx; other key /health < 2 s',
  run: async (context) => {
    let done = false;
    const health = bystanderLoop(context, ['/health'], () => done, 100);
    const { gzipBomb, tinyObjects } = context.material;
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => post(context, '/applications', gzipBomb, { 'content-encoding': 'gzip' })),
      ...Array.from({ length: 4 }, () => post(context, '/applications', tinyObjects)),
    ]);
    done = true;
    const { latencies, failures } = await health;
    const slowest = Math.max(0, ...latencies);
    return {
      statuses: `${describeStatuses(answers)}; /health max ${round(slowest)} (${latencies.length})`,
      checks: [
        allClientErrors(answers, 'crafted body'),
        {
          ok: slowest < 2000 && failures.length === 0,
          text: `other key's /health: ${latencies.length} answers, slowest ${round(slowest)}${failures.length ? `, ${failures.length} failed (${failures[0]})` : ''}`,
        },
      ],
    };
  },
};

type TProcessing = { status: string; error: string | null; candidateId: number | null; seconds: number };

/** Uploads one resume and follows its processing until it ends or the attack's deadline passes. */
async function processResume(
  context: TAttackContext,
  filename: string,
  content: Buffer | string,
  mimeType: string,
): Promise<{ upload: TAnswer; processing?: TProcessing }> {
  const base64 = typeof content === 'string' ? content : content.toString('base64');
  const upload = await post(
    context,
    '/candidates',
    json({ user_id: ATTACKER_USER_ID, resume: { filename, content: base64, mime_type: mimeType } }),
  );
  const id = /"processing_id":"([^"]+)"/.exec(upload.body)?.[1];
  if (upload.status !== 202 || !id) return { upload };
  const started = performance.now();
  let last: TProcessing = { status: 'queued', error: null, candidateId: null, seconds: 0 };
  while (!context.signal.aborted) {
    const answer = await send({
      url: `${context.baseUrl}/candidates/processing/${id}`,
      key: attackerKey(0),
      timeoutMs: 5000,
    });
    const data =
      answer.status === 200
        ? (JSON.parse(answer.body) as { data: { status: string; error: string | null; candidate_id: number | null } })
            .data
        : undefined;
    last = {
      status: data?.status ?? `HTTP ${answer.status || answer.error}`,
      error: data?.error ?? null,
      candidateId: data?.candidate_id ?? null,
      seconds: (performance.now() - started) / 1000,
    };
    if (last.status === 'completed' || last.status === 'failed') break;
    await sleep(250);
  }
  return { upload, processing: last };
}

const describeProcessing = (name: string, result: { upload: TAnswer; processing?: TProcessing }) =>
  result.processing
    ? `${name} ${result.processing.status} after ${result.processing.seconds.toFixed(1)} s${result.processing.error ? ` (${result.processing.error.slice(0, 80)})` : ''}`
    : `${name} upload ${result.upload.status || result.upload.error}: ${result.upload.body.slice(0, 120)}`;

const brief = (result: { processing?: TProcessing }) =>
  result.processing ? `${result.processing.status} ${result.processing.seconds.toFixed(1)} s` : 'not accepted';

/** The looping .doc and the DOCX bomb, uploaded together: both must end `failed` within 30 s. */
const craftedResumes: TAttack = {
  name: 'crafted resumes: looping .doc + DOCX bomb',
  bound: 'both failed ≤ 30 s',
  run: async (context) => {
    const [doc, docx] = await Promise.all([
      processResume(context, 'looping.doc', context.material.loopingDoc, MS_DOC),
      processResume(context, 'bomb.docx', context.material.docxBomb, MS_DOCX),
    ]);
    const endsFailed = (name: string, result: typeof doc): TCheck => ({
      ok: result.processing?.status === 'failed' && result.processing.seconds <= 30,
      text: describeProcessing(name, result),
    });
    return {
      statuses: `${describeStatuses([doc.upload, docx.upload])}; .doc ${brief(doc)}, .docx ${brief(docx)}`,
      checks: [endsFailed('.doc', doc), endsFailed('.docx', docx)],
    };
  },
};

/** An ordinary PDF resume after the crafted ones: the worker still makes candidates. */
const ordinaryResume: TAttack = {
  name: 'ordinary PDF resume afterwards',
  bound: 'completed (a candidate) ≤ 30 s',
  run: async (context) => {
    const result = await processResume(context, 'amira-bakker.pdf', context.material.resumePdf, 'application/pdf');
    const processing = result.processing;
    return {
      statuses: `${describeStatuses([result.upload])}; ${processing ? `${processing.status} in ${processing.seconds.toFixed(1)} s` : '-'}`,
      checks: [
        {
          ok: processing?.status === 'completed' && processing.candidateId !== null && processing.seconds <= 30,
          text: describeProcessing('PDF', result),
        },
      ],
    };
  },
};

/** 100 000 levels of nesting on every POST, with and without Idempotency-Key. */
const deepJson: TAttack = {
  name: 'deep JSON (100 000 levels) on 3 POSTs ± Idempotency-Key',
  bound: 'all 4xx',
  run: async (context) => {
    const body = deepJsonBody();
    const paths = ['/applications', '/candidates', `/vacancies/${context.vacancySlug}/canonical-url`];
    const answers: TAnswer[] = [];
    for (const path of paths) {
      answers.push(await post(context, path, body));
      answers.push(await post(context, path, body, { 'idempotency-key': randomUUID() }));
    }
    return { statuses: describeStatuses(answers), checks: [allClientErrors(answers, 'deep body')] };
  },
};

/** A NUL byte in `vacancy`, `candidate.given_name`, a filename, `tracking`, and the filename of POST /candidates. */
const nulBytes: TAttack = {
  name: 'NUL bytes in 5 POST fields',
  bound: 'all 4xx',
  run: async (context) => {
    const cases = nulBodies(context.vacancySlug, context.material.resumePdf, ATTACKER_USER_ID);
    const answers: TAnswer[] = [];
    const bad: string[] = [];
    for (const { name, path, body } of cases) {
      const answer = await post(context, path, json(body));
      answers.push(answer);
      if (!is4xx(answer.status)) bad.push(`${name} → ${answer.status || answer.error}`);
    }
    return {
      statuses: cases.map((c, i) => `${c.label} ${answers[i]?.status || answers[i]?.error}`).join(', '),
      checks: [
        {
          ok: bad.length === 0,
          text: bad.length === 0 ? 'every NUL field answered 4xx' : `not 4xx: ${bad.join(', ')}`,
        },
      ],
    };
  },
};

/** An application with a known candidate's email (other case) must echo the names it was given. */
const knownEmailEcho: TAttack = {
  name: 'application with a known email',
  bound: 'echoes the submitted names',
  run: async (context) => {
    const body = applicationBody(context.vacancySlug, KNOWN_CANDIDATE.email.toUpperCase());
    body.candidate.given_name = 'Submitted';
    body.candidate.family_name = 'Name';
    const answer = await post(context, '/applications', json(body));
    const candidate =
      answer.status === 201
        ? (JSON.parse(answer.body) as { data: { candidate: { given_name: string; family_name: string } } }).data
            .candidate
        : undefined;
    const echoed = candidate ? `${candidate.given_name} ${candidate.family_name}` : '-';
    return {
      statuses: `${answer.status || answer.error}; answered "${echoed}"`,
      checks: [
        {
          ok: echoed === 'Submitted Name',
          text: `sent "Submitted Name", answered ${candidate ? `"${echoed}"` : `${answer.status || answer.error}: ${answer.body.slice(0, 120)}`}`,
        },
      ],
    };
  },
};

/** p99 of the bystander during an attack may be this many times its quiet p99, or this many ms, whichever is more. */
const SLOWDOWN_FACTOR = 3;
const SLOWDOWN_FLOOR_MS = 100;
const slowdownBound = `other key p99 ≤ max(${SLOWDOWN_FLOOR_MS} ms, ${SLOWDOWN_FACTOR}× quiet)`;

function slowdownCheck(quietP99: number, latencies: number[], failures: string[]): TCheck {
  const p99 = percentile(
    [...latencies].sort((a, b) => a - b),
    99,
  );
  const limit = Math.max(SLOWDOWN_FLOOR_MS, SLOWDOWN_FACTOR * quietP99);
  return {
    ok: p99 <= limit && failures.length === 0,
    text: `other key: quiet p99 ${round(quietP99)}, under attack p99 ${round(p99)} over ${latencies.length} requests (limit ${round(limit)})${failures.length ? `; ${failures.length} failed (${failures[0]})` : ''}`,
  };
}

export const SPRAY_TOKENS = 20_000;
const SPRAY_CONNECTIONS = 64;

/** Random bearer tokens, half of them shaped like keys (those may reach the database even with a format check). */
function randomToken(index: number): string {
  return index % 2 === 0 ? `ck_live_${randomBytes(24).toString('base64url')}` : randomBytes(18).toString('base64');
}

const tokenSpray: TAttack = {
  name: `random-token spray (${SPRAY_TOKENS / 1000}k on /health)`,
  bound: `all 401; ${slowdownBound}`,
  run: async (context) => {
    const quiet = await bystanderBaseline(context, ['/health'], 200);
    const agent = new Agent({ keepAlive: true, maxSockets: SPRAY_CONNECTIONS });
    let done = false;
    const bystander = bystanderLoop(context, ['/health'], () => done, 5);
    const counts = new Map<number, number>();
    try {
      await pool(
        SPRAY_TOKENS,
        SPRAY_CONNECTIONS,
        async (index) => {
          const answer = await send({
            url: `${context.baseUrl}/health`,
            key: randomToken(index),
            timeoutMs: 10_000,
            agent,
            signal: context.signal,
          });
          counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
        },
        () => context.signal.aborted,
      );
    } finally {
      done = true;
      agent.destroy();
    }
    const { latencies, failures } = await bystander;
    const sprayed = [...counts.values()].reduce((a, b) => a + b, 0);
    const unauthenticated = counts.get(401) ?? 0;
    const statuses = [...counts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    return {
      statuses: `${statuses}; valid p99 ${round(
        percentile(
          [...latencies].sort((a, b) => a - b),
          99,
        ),
      )}`,
      checks: [
        {
          ok: unauthenticated === SPRAY_TOKENS,
          text: `${sprayed} of ${SPRAY_TOKENS} sprayed, ${unauthenticated} answered 401`,
        },
        slowdownCheck(quiet, latencies, failures),
      ],
    };
  },
};

const BURST_SECONDS = 10;
const BURST_CONNECTIONS = 32;
const BYSTANDER_READS = [
  '/vacancies?per_page=20',
  '/vacancies/facets',
  '/locations?per_page=20',
  '/vacancies?per_page=20&page=2',
];

/** One attacker key asks many distinct, uncached list questions (searches, deep pages, facets) for 15 s. */
function expensiveRead(index: number): string {
  const sorts = ['published_at', 'title', 'created_at'];
  const search = randomBytes(2)
    .toString('hex')
    .slice(0, 2 + (index % 2));
  const page = 40 + (index % 61);
  return `/vacancies?search=${search}&sort=${sorts[index % 3]}&sort_direction=${index % 2 ? 'asc' : 'desc'}&page=${page}&per_page=100${index % 4 === 0 ? '&include=facets' : ''}`;
}

const readBurst: TAttack = {
  name: `expensive-read burst (1 key, ${BURST_CONNECTIONS} conns, ${BURST_SECONDS} s)`,
  bound: slowdownBound,
  run: async (context) => {
    const quiet = await bystanderBaseline(context, BYSTANDER_READS, 200);
    const agent = new Agent({ keepAlive: true, maxSockets: BURST_CONNECTIONS });
    const key = attackerKey(1);
    const until = performance.now() + BURST_SECONDS * 1000;
    let done = false;
    const bystander = bystanderLoop(context, BYSTANDER_READS, () => done, 20);
    const answers: TAnswer[] = [];
    try {
      await pool(
        Number.MAX_SAFE_INTEGER,
        BURST_CONNECTIONS,
        async (index) => {
          answers.push(
            await send({
              url: `${context.baseUrl}${expensiveRead(index)}`,
              key,
              timeoutMs: 20_000,
              agent,
              signal: context.signal,
            }),
          );
        },
        () => performance.now() >= until || context.signal.aborted,
      );
    } finally {
      done = true;
      agent.destroy();
    }
    const { latencies, failures } = await bystander;
    const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    return {
      statuses: `${describeStatuses(answers)} (attacker p50 ${round(percentile(sorted, 50))}); other p99 ${round(
        percentile(
          [...latencies].sort((a, b) => a - b),
          99,
        ),
      )}`,
      checks: [slowdownCheck(quiet, latencies, failures)],
    };
  },
};

const publicMetrics: TAttack = {
  name: '/metrics on the public API port',
  bound: 'not served',
  run: async (context) => {
    const answer = await send({
      url: `${context.baseUrl.replace(/\/v1$/, '')}/metrics`,
      timeoutMs: 5000,
      signal: context.signal,
    });
    const served = answer.status === 200;
    return {
      statuses: String(answer.status || answer.error),
      checks: [
        {
          ok: !served,
          text: served
            ? 'GET /metrics answered 200 on the public port'
            : `GET /metrics answered ${answer.status || answer.error}`,
        },
      ],
    };
  },
};

/**
 * In this order: the memory attacks on the API first (a fresh process), the cheap request checks, the guards of the
 * shared service (stalled bodies, one-visitor lockout), the two load attacks, and the resume attacks last (a worker
 * they leave busy does not touch the API's rows).
 */
export const ATTACKS: readonly TAttack[] = [
  craftedBodies,
  deepJson,
  nulBytes,
  knownEmailEcho,
  publicMetrics,
  ...GUARD_ATTACKS,
  tokenSpray,
  readBurst,
  craftedResumes,
  ordinaryResume,
  ...WEBHOOK_ATTACKS,
];
