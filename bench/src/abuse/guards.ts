import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TAttack, TAttackContext, TCheck } from './attacks.ts';
import { applicationBody } from './bodies.ts';
import { BYSTANDER_KEY, SITE_KEY, SITE_ORIGIN } from './document.ts';
import { describeStatuses, send, type TAnswer } from './http.ts';

/**
 * The attacks of issue 27 on the shared service's guards, each from clients on their own loopback addresses
 * (127.0.0.2, 127.0.0.3, …: every 127/8 address is this machine, and the API sees each as another client).
 */

const round = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const unique = () => `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;

/** The bystander tenant's first vacancy that accepts applications (its own key, its own tenant). */
async function bystanderVacancy(context: TAttackContext): Promise<string> {
  const listing = await send({
    url: `${context.baseUrl}/vacancies?per_page=50`,
    key: BYSTANDER_KEY,
    timeoutMs: 10_000,
    keepChars: Infinity,
  });
  const data =
    listing.status === 200
      ? (JSON.parse(listing.body) as { data: { slug: string; accepts_applications: boolean }[] }).data
      : [];
  const slug = data.find((vacancy) => vacancy.accepts_applications)?.slug;
  if (!slug) throw new Error(`no open vacancy for the bystander: ${listing.status} ${listing.body.slice(0, 200)}`);
  return slug;
}

/** A request whose body stops: the headers promise `declared` bytes, `sent` bytes follow, then nothing. */
type TStalledBody = { answer: Promise<{ status: number; ms: number; error?: string }>; destroy: () => void };

function stalledBody(context: TAttackContext, localAddress: string, declared: number, body: Buffer): TStalledBody {
  const started = performance.now();
  const req = request(`${context.baseUrl}/applications`, {
    method: 'POST',
    localAddress,
    agent: false,
    headers: {
      authorization: `Bearer ${SITE_KEY}`,
      origin: SITE_ORIGIN,
      'content-type': 'application/json',
      'content-length': String(declared),
    },
  });
  const answer = new Promise<{ status: number; ms: number; error?: string }>((resolve) => {
    let status = 0;
    const settle = (error?: string) =>
      resolve({ status, ms: performance.now() - started, ...(status === 0 && error ? { error } : {}) });
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.on('end', () => settle());
    });
    // A connection the server closes without an answer (or one aborted at the deadline) is status 0.
    req.on('error', (error) => settle((error as NodeJS.ErrnoException).code ?? error.message));
    req.on('close', () => settle('closed'));
  });
  context.signal.addEventListener('abort', () => req.destroy(), { once: true });
  req.flushHeaders();
  req.write(body);
  return { answer, destroy: () => req.destroy() };
}

/** One application of another tenant, from its own address. */
function bystanderApply(context: TAttackContext, vacancy: string): Promise<TAnswer> {
  return send({
    method: 'POST',
    url: `${context.baseUrl}/applications`,
    key: BYSTANDER_KEY,
    body: json(applicationBody(vacancy, `bystander.${unique()}@abuse.example`)),
    localAddress: '127.0.0.100',
    timeoutMs: 5000,
    signal: context.signal,
  });
}

/** Another tenant's applications, one every `everyMs`, until `stop()`. */
async function bystanderWrites(
  context: TAttackContext,
  vacancy: string,
  stop: () => boolean,
  everyMs: number,
): Promise<TAnswer[]> {
  const answers: TAnswer[] = [];
  while (!stop() && !context.signal.aborted) {
    const next = performance.now() + everyMs;
    answers.push(await bystanderApply(context, vacancy));
    await sleep(Math.max(0, next - performance.now()));
  }
  return answers;
}

const STALL_SOCKETS = 4;
const STALL_DECLARED = 40_000_000;
const STALL_SENT = 32 * 1024 * 1024;
/** CONTRACT: a body that stops arriving for 10 s is dropped; answered by then plus this much. */
const STALL_SECONDS = 10;
const STALL_GRACE_MS = 5000;
const OTHER_WRITE_LIMIT_MS = 2000;

/**
 * Four sockets of a career site's public key (four addresses) send the headers of POST /applications with
 * Content-Length 40 000 000, then 32 MiB, then pause. Another tenant applies every 2 s throughout; the attack ends
 * when every stalled socket is answered (or closed).
 */
const stalledBodies: TAttack = {
  name: `stalled bodies ×${STALL_SOCKETS} (publishable key, ${STALL_SENT / 1024 / 1024} MiB of ${STALL_DECLARED / 1e6} MB, then pause)`,
  bound: `stalled ones answered ≤ ${STALL_SECONDS + STALL_GRACE_MS / 1000} s; other tenant's POSTs 201 < ${OTHER_WRITE_LIMIT_MS / 1000} s`,
  run: async (context) => {
    const vacancy = await bystanderVacancy(context);
    // One application when nothing else runs (code compiled, the tenant's rows cached): the quiet figure.
    const quiet = await bystanderApply(context, vacancy);
    const prefix = Buffer.from('{"padding":"');
    const body = Buffer.concat([prefix, Buffer.alloc(STALL_SENT - prefix.length, 'a')]);
    const sockets = Array.from({ length: STALL_SOCKETS }, (_, index) =>
      stalledBody(context, `127.0.0.${2 + index}`, STALL_DECLARED, body),
    );
    let done = false;
    // Let the bodies arrive before measuring the other tenant (they are what it must not wait behind).
    await sleep(500);
    // Every 2 s: the other tenant's key may write 10 times a minute, and the stall lasts 10 s and more.
    const others = bystanderWrites(context, vacancy, () => done, 2000);
    const answers = await Promise.all(sockets.map((socket) => socket.answer));
    done = true;
    const writes = await others;
    for (const socket of sockets) socket.destroy();

    const slowestStalled = Math.max(...answers.map((answer) => answer.ms));
    const slowestOther = Math.max(0, ...writes.map((answer) => answer.ms));
    const refusedOthers = writes.filter((answer) => answer.status !== 201);
    const checks: TCheck[] = [
      {
        ok:
          answers.every((answer) => answer.status === 408 || answer.status === 503) &&
          slowestStalled <= STALL_SECONDS * 1000 + STALL_GRACE_MS,
        text: `stalled sockets: ${answers.map((answer) => `${answer.status || answer.error} after ${round(answer.ms)}`).join(', ')}`,
      },
      {
        ok:
          quiet.status === 201 &&
          writes.length >= 5 &&
          refusedOthers.length === 0 &&
          slowestOther < OTHER_WRITE_LIMIT_MS,
        text:
          `other tenant: quiet ${quiet.status || quiet.error} in ${round(quiet.ms)}; ${writes.length} POST /applications during the stall, ` +
          `${describeStatuses(writes)}, slowest ${round(slowestOther)}` +
          (refusedOthers.length
            ? ` (${refusedOthers[0]?.status || refusedOthers[0]?.error} ${refusedOthers[0]?.body.slice(0, 100)})`
            : ''),
      },
    ];
    return {
      statuses: `stalled ${describeStatuses(answers)} (last ${round(slowestStalled)}); other ${describeStatuses(writes)} max ${round(slowestOther)}`,
      checks,
    };
  },
};

const LOCKOUT_REQUESTS = 60;
const LOCKOUT_CONCURRENCY = 4;

/**
 * One visitor (one address) sends empty and `validate_only` applications as fast as it can with a career site's public
 * key; meanwhile, and after, a real applicant from another address applies with the same key.
 */
const visitorLockout: TAttack = {
  name: `one-visitor lockout (${LOCKOUT_REQUESTS} {} / validate_only with a publishable key)`,
  bound: 'the visitor gets ≤ 5 answers a minute, then 429; a real applicant elsewhere 201',
  run: async (context) => {
    const visitor = '127.0.0.20';
    const post = (localAddress: string, body: Buffer, query = '') =>
      send({
        method: 'POST',
        url: `${context.baseUrl}/applications${query}`,
        key: SITE_KEY,
        headers: { origin: SITE_ORIGIN },
        body,
        localAddress,
        timeoutMs: Math.max(1, context.remainingMs()),
        signal: context.signal,
      });
    const flood: TAnswer[] = [];
    let next = 0;
    const lane = async () => {
      while (next < LOCKOUT_REQUESTS && !context.signal.aborted) {
        const index = next++;
        flood.push(
          index % 2 === 0
            ? await post(visitor, json({}))
            : await post(
                visitor,
                json(applicationBody(context.vacancySlug, `visitor.${unique()}@abuse.example`)),
                '?validate_only=true',
              ),
        );
      }
    };
    const flooding = Promise.all(Array.from({ length: LOCKOUT_CONCURRENCY }, lane));
    // The applicant applies while the visitor floods, and once more after it.
    while (flood.length < LOCKOUT_REQUESTS / 4 && !context.signal.aborted) await sleep(10);
    const during = await post(
      '127.0.0.21',
      json(applicationBody(context.vacancySlug, `applicant.${unique()}@abuse.example`)),
    );
    await flooding;
    const after = await post(
      '127.0.0.22',
      json(applicationBody(context.vacancySlug, `applicant.${unique()}@abuse.example`)),
    );

    const answered = flood.filter((answer) => answer.status !== 429);
    const limited = flood.filter((answer) => answer.status === 429);
    return {
      statuses: `visitor ${describeStatuses(flood)}; applicant ${during.status || during.error} during, ${after.status || after.error} after`,
      checks: [
        {
          ok:
            answered.length <= 5 &&
            answered.every((answer) => answer.status === 422 || answer.status === 200) &&
            limited.length === flood.length - answered.length,
          text: `visitor: ${answered.length} of ${flood.length} answered (${describeStatuses(answered)}), ${limited.length} limited`,
        },
        {
          ok: during.status === 201 && after.status === 201,
          text: `real applicant from another address: ${during.status || during.error} during the flood, ${after.status || after.error} after${during.status === 201 ? '' : ` (${during.body.slice(0, 100)})`}`,
        },
      ],
    };
  },
};

export const GUARD_ATTACKS: readonly TAttack[] = [stalledBodies, visitorLockout];
